import OpsEngine
import OpsEvents

// The words every handout uses for how an operation ended and for a queue's settings over time, so
// that dot, Mermaid, the SVG timeline and the Markdown handout say the same thing the same way. Times
// are `fixed3` seconds with an `s`, as everywhere else in the exports.

extension OperationInfo {
  /// The second line of a node and the first of a tooltip: how it ended, or the state it is in and
  /// since when, and when it was cancelled if it was.
  var statusLine: String {
    if state == .finished { return ending }
    return "\(Outcome(self).label) since \(fixed3(enteredState))s"
      + (cancelled ? ", " + cancelledWhen : "")
  }

  /// `cancelled at 4.000s`, `cancelled by its timeout at 7.000s`: when its cancelled flag was set,
  /// and why when no one called cancel() by hand or by script.
  var cancelledWhen: String {
    "cancelled" + cancelledBy + (cancelledAt.map { " at \(fixed3($0))s" } ?? "")
  }

  private var cancelledBy: String {
    switch cancelCause {
    case .timeout: " by its timeout"
    case .parent: " with its group"
    case .condition: " by a failed condition"
    case .command, .action, nil: ""
    }
  }

  /// How a finished operation ended. A cancelled one says when it was cancelled and, apart, what its
  /// work did about it: stopped (it noticed, or it was finished at once), ran on to its end (it never
  /// checked), or never ran (cancelled before it started). Cancellation is a request: the two times
  /// are the lesson, so they are said once each, and once only when they are the same.
  var ending: String {
    let finish = finishedAt ?? enteredState
    guard cancelled, let cancelTime = cancelledAt else {
      return "\(Outcome(self).label) at \(fixed3(finish))s"
    }
    let finishing = history.first { $0.state == .finishing }
    let stop = finishing?.time ?? finish
    let atOnce = fixed3(stop) == fixed3(cancelTime)
    if startedAt == nil {
      return cancelledWhen + ", never ran"
        + (fixed3(finish) == fixed3(cancelTime) ? "" : ", finished at \(fixed3(finish))s")
    }
    if atOnce { return "cancelled" + cancelledBy + " and stopped at \(fixed3(stop))s" }
    if finishing?.cause == .ranDespiteCancel {
      return cancelledWhen + ", ran on to \(fixed3(stop))s"
    }
    return cancelledWhen + ", stopped at \(fixed3(stop))s"
  }
}

extension QueueInfo {
  /// Its limit over time: the one it was added with, then each different one and from when. Changes
  /// at the same moment count as one (the last), and a change to the same limit is no change.
  var limitRuns: [(time: Double, limit: Int?)] {
    var runs: [(time: Double, limit: Int?)] = []
    for c in changes {
      if let last = runs.last, last.time == c.time { runs.removeLast() }
      if let last = runs.last, last.limit == c.maxConcurrent { continue }
      runs.append((c.time, c.maxConcurrent))
    }
    return runs.isEmpty ? [(0, maxConcurrent)] : runs
  }

  /// The periods it was suspended, in order; `to` is nil while it still is. A suspension resumed at
  /// the same moment is none.
  var suspensions: [(from: Double, to: Double?)] {
    var out: [(from: Double, to: Double?)] = []
    var since: Double?
    for c in changes {
      if c.suspended {
        if since == nil { since = c.time }
      } else if let s = since {
        if c.time > s { out.append((s, c.time)) }
        since = nil
      }
    }
    if let s = since { out.append((s, nil)) }
    return out
  }

  /// `max 2, 3 from 12.000s`.
  var limitHistoryText: String {
    "max "
      + limitRuns.enumerated().map { i, run in
        OpsEvents.limitText(run.limit) + (i == 0 ? "" : " from \(fixed3(run.time))s")
      }.joined(separator: ", ")
  }

  /// `suspended from 6.000s to 10.000s`, `suspended from 6.000s` (still at the end), `suspended from
  /// 1.000s to 2.000s and from 5.000s`, or nil.
  var suspensionText: String? {
    let periods = suspensions
    guard !periods.isEmpty else { return nil }
    let each = periods.map {
      "from \(fixed3($0.from))s" + ($0.to.map { " to \(fixed3($0))s" } ?? "")
    }
    return "suspended "
      + (each.count == 1 ? each[0] : each.dropLast().joined(separator: ", ") + " and " + each.last!)
  }

  /// `max 2, 3 from 12.000s; suspended from 6.000s to 10.000s`.
  var historyText: String { limitHistoryText + (suspensionText.map { "; " + $0 } ?? "") }

  /// A cluster's title: `network (max 2, 3 from 12.000s; suspended from 6.000s to 10.000s)`.
  var historyLabel: String { name + " (" + historyText + ")" }
}
