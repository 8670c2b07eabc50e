import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

/// The photo scenario's model at `time` (queues: network with a limit of 2, images unlimited, ui
/// with a limit of 1).
private func model(at time: Double) -> BoardModel {
  let s = photoSession()
  s.advance(by: time)
  return s.model
}

private func selecting(queue: Int = 0, operation: String? = nil) -> SharedState {
  var selection = SharedState()
  selection.selectedQueue = queue
  selection.selected = operation
  return selection
}

@Suite("KeyOutcome: what a key asks for, decided as a value without an event source")
struct KeyOutcomeTests {
  let early = model(at: 1)

  private func outcome(_ action: BoardAction, _ selection: SharedState, in model: BoardModel? = nil)
    -> KeyOutcome
  {
    KeyDecisions.outcome(of: action, in: model ?? early, selection: selection)
  }

  @Test func quitOpenersAndTheSessionsOwnActions() {
    #expect(outcome(.quit, selecting()) == .quit)
    for type in ViewRegistry.all {
      guard let opener = type.opener else { continue }
      #expect(outcome(opener.action, selecting()) == .toggle(type.id))
    }
    #expect(outcome(.step, selecting()) == .session(.step))
    #expect(outcome(.openDetail, selecting(operation: "download")) == .open(.detail))
  }

  @Test func suspendOrResumeTheSelectedQueue() {
    #expect(
      outcome(.suspendResume, selecting(queue: 0))
        == .send(
          .suspend(queue: "network"),
          applied: "network suspended: running operations continue, nothing new starts"))
    // At 7 s the scenario has suspended network: the same key resumes it.
    let later = model(at: 7)
    #expect(later.queue(named: "network")!.suspended)
    #expect(
      outcome(.suspendResume, selecting(queue: 0), in: later)
        == .send(
          .resume(queue: "network"), applied: "network resumed: waiting operations may start"))
  }

  @Test func limitKeys() {
    #expect(
      outcome(.raiseLimit, selecting(queue: 0))
        == .send(
          .setMaxConcurrent(queue: "network", value: 3),
          applied: "network maxConcurrent 2 → 3: waiting operations may start at once"))
    #expect(
      outcome(.lowerLimit, selecting(queue: 2))
        == .send(
          .setMaxConcurrent(queue: "ui", value: 0),
          applied: "ui maxConcurrent 1 → 0: nothing new starts"))
    // images has no limit: + cannot raise it, - sets the number running (at least 1), * refuses.
    #expect(
      outcome(.raiseLimit, selecting(queue: 1))
        == .say(
          StatusMessage(
            "images is unlimited (\(limitText(nil))) already: - sets a limit", .rejected)))
    let running = max(early.queue(named: "images")!.executing, 1)
    guard
      case .send(.setMaxConcurrent("images", running), _) = outcome(
        .lowerLimit, selecting(queue: 1))
    else {
      Issue.record("- on an unlimited queue sets the number running")
      return
    }
    #expect(
      outcome(.unlimited, selecting(queue: 1))
        == .say(StatusMessage("images has no limit (\(limitText(nil))) already", .rejected)))
    #expect(
      outcome(.unlimited, selecting(queue: 0))
        == .send(
          .setMaxConcurrent(queue: "network", value: nil),
          applied:
            "network maxConcurrent 2 → \(limitText(nil)): waiting operations may start at once"))
  }

  @Test func queueKeysWithoutQueuesAreRefused() {
    let empty = BoardSession(title: "empty", notes: "", paused: true) { VirtualRuntime() }.model
    #expect(
      outcome(.suspendResume, selecting(), in: empty)
        == .say(StatusMessage("no queue to suspend yet", .rejected)))
    for action in [BoardAction.raiseLimit, .lowerLimit, .unlimited, .cancelAll] {
      #expect(
        outcome(action, selecting(), in: empty)
          == .say(StatusMessage("no queue selected", .rejected)))
    }
    #expect(
      outcome(.cancelOperation, selecting(), in: empty)
        == .say(StatusMessage("no operation selected", .rejected)))
  }

  @Test func cancelTheSelectedOperation() {
    let download = early.operation(named: "download")!
    #expect(download.state == .executing)
    #expect(
      outcome(.cancelOperation, selecting(operation: "download"))
        == .send(
          .cancel(operation: "download"),
          applied: "cancelled download: its work decides when it stops (isCancelled is set)"))
    #expect(
      outcome(.cancelOperation, selecting(operation: "notYetAdded"))
        == .say(
          StatusMessage(
            "notYetAdded is not added yet at this moment: nothing to cancel", .rejected)))
    #expect(
      outcome(.openDetail, selecting(operation: "notYetAdded"))
        == .say(
          StatusMessage("notYetAdded is not added yet at this moment: nothing to show", .rejected)))
  }

  /// The status line's sentence for a cancel on a suspended queue, checked against the run: ready at
  /// once, finished only after the resume (network is suspended from 6s to 10s).
  @Test func cancellingOnASuspendedQueueSaysItFinishesOnceResumed() throws {
    let s = photoSession()
    s.advance(by: 7)
    let upload = try #require(s.model.operation(named: "upload"))
    #expect(upload.state < .executing && upload.queue == "network")
    #expect(s.model.queue(named: "network")?.suspended == true)
    s.select(operation: "upload")
    _ = s.handle(.character("c"))
    #expect(
      s.status?.text
        == "cancelled upload: it becomes ready at once; its queue is suspended: once resumed it "
        + "starts it, it skips main() and finishes")
    #expect(s.model.operation(named: "upload")?.state == .ready)
    s.advance(by: 2.9)
    #expect(s.model.operation(named: "upload")?.state == .ready)
    s.advance(by: 0.2)
    #expect(s.model.operation(named: "upload")?.state == .finished)
    #expect(
      s.log.contains {
        if case .state("upload", _, .finishing, .skippedMain) = $0.event.kind {
          return true
        }
        return false
      })
  }

  @Test func cancelAllAsksAndTheAnswerAppliesToTheSetItNamed() {
    guard case .ask(let question) = outcome(.cancelAll, selecting(queue: 0)),
      case .cancelAll("network", let named) = question.effect
    else {
      Issue.record("C asks first")
      return
    }
    #expect(named == KeyDecisions.unfinished(in: "network", early))
    #expect(!named.isEmpty)
    #expect(question.question.hasPrefix("cancel every unfinished operation of network ("))
    #expect(
      KeyDecisions.answer(question, .character("n"), in: early)
        == .say(StatusMessage("not confirmed: nothing changed")))
    #expect(
      KeyDecisions.answer(question, .character("y"), in: early)
        == .cancelAll(queue: "network", operations: named))
    // Later the set has changed (download finished): y asks again about the set now.
    let later = model(at: 5)
    let now = KeyDecisions.unfinished(in: "network", later)
    #expect(now != named)
    guard case .ask(let again) = KeyDecisions.answer(question, .character("Y"), in: later) else {
      Issue.record("a changed set is asked about again")
      return
    }
    #expect(again.question.hasPrefix("network changed since you were asked"))
    #expect(again.effect == .cancelAll(queue: "network", operations: now))
    let restart = Confirmation(question: "restart?", effect: .restart)
    #expect(KeyDecisions.answer(restart, .character("y"), in: early) == .restart)
    #expect(KeyDecisions.answer(restart, .escape, in: early) != .restart)
  }
}
