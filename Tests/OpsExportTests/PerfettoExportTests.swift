import Foundation
import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsExport

/// A parsed Perfetto export: its events as dictionaries.
private struct Trace {
  let events: [[String: Any]]

  init(_ text: String) throws {
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    events = try #require(root["traceEvents"] as? [[String: Any]])
  }

  func phase(_ ph: String) -> [[String: Any]] { events.filter { $0["ph"] as? String == ph } }
}

private struct Slice {
  let pid: Int
  let tid: Int
  let ts: Int
  let dur: Int
  var end: Int { ts + dur }
}

@Suite struct PerfettoExportTests {
  @Test(arguments: Catalog.all.map(\.id))
  func everyBuiltInScenarioGivesAValidNestedTrace(_ name: String) throws {
    let source = try exportSource(name)
    let trace = try Trace(PerfettoExport.render(source))
    let p = source.projection

    // One named process per queue, one named thread per operation.
    let processNames = trace.phase("M").filter { $0["name"] as? String == "process_name" }
    #expect(
      processNames.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        == p.queues.map(\.name))
    let threadNames = trace.phase("M").filter { $0["name"] as? String == "thread_name" }
    #expect(threadNames.count == p.operations.count)
    // Perfetto reads tid == pid as the process's main thread: operations never get such a tid.
    #expect(threadNames.allSatisfy { ($0["tid"] as! Int) > p.queues.count })

    // Slices on one track nest: sorted by start (longest first at a tie), each slice either starts
    // after the enclosing one ends or ends within it.
    let slices = trace.phase("X").map {
      Slice(
        pid: $0["pid"] as! Int, tid: $0["tid"] as! Int, ts: $0["ts"] as! Int,
        dur: $0["dur"] as! Int)
    }
    #expect(!slices.isEmpty)
    #expect(slices.allSatisfy { $0.dur > 0 })
    let tracks = Dictionary(grouping: slices) { "\($0.pid)/\($0.tid)" }
    for (track, list) in tracks {
      var open: [Slice] = []
      for s in list.sorted(by: { ($0.ts, -$0.dur) < ($1.ts, -$1.dur) }) {
        while let top = open.last, top.end <= s.ts { open.removeLast() }
        if let top = open.last {
          #expect(s.end <= top.end, "overlapping slices on track \(track): \(top) and \(s)")
        }
        open.append(s)
      }
    }
    // Every executing stretch is a slice in the `running` category, every wait in `waiting`.
    let categories = Set(trace.phase("X").compactMap { $0["cat"] as? String })
    #expect(categories.isSubset(of: ["running", "waiting"]))

    // Flows pair up: one start and one finish per id, the start first, each at the start of a
    // slice of its own track (where Perfetto binds it to that slice, whatever instants follow).
    let starts = trace.phase("s")
    let finishes = trace.phase("f")
    #expect(starts.count == finishes.count)
    let startByID = Dictionary(uniqueKeysWithValues: starts.map { ($0["id"] as! Int, $0) })
    let finishByID = Dictionary(uniqueKeysWithValues: finishes.map { ($0["id"] as! Int, $0) })
    #expect(Set(startByID.keys) == Set(finishByID.keys))
    for (id, s) in startByID {
      let f = try #require(finishByID[id])
      #expect((s["ts"] as! Int) <= (f["ts"] as! Int))
      #expect(f["bp"] as? String == "e")
      for e in [s, f] {
        let onTrack = tracks["\(e["pid"] as! Int)/\(e["tid"] as! Int)"] ?? []
        let ts = e["ts"] as! Int
        #expect(
          onTrack.contains { $0.ts == ts && $0.end > ts }, "flow \(id) is not at a slice's start")
      }
    }
  }

  /// Perfetto's trace processor binds a flow event to the top of its thread's slice stack, not to
  /// the slice around its timestamp, and a thread instant stays on that stack until the next slice
  /// begins (google/perfetto: importers/common/flow_tracker.cc, slice_tracker.cc; events sorted by
  /// time, `X` first at a tie, then in file order). Replayed here: every flow must land on a slice.
  /// Before the fix, tour's purge arrow landed on a warning instant.
  @Test(arguments: Catalog.all.map(\.id))
  func everyFlowBindsToASliceInPerfetto(_ name: String) throws {
    let trace = try Trace(PerfettoExport.render(try exportSource(name)))
    struct Entry {
      let ph: String
      let ts: Int
      let end: Int
    }
    let ordered = trace.events.enumerated().filter { _, e in
      let ph = e["ph"] as? String
      return ph == "X" || ph == "s" || ph == "f" || (ph == "i" && e["s"] as? String == "t")
    }.sorted { a, b in
      let (ta, tb) = (a.element["ts"] as! Int, b.element["ts"] as! Int)
      let (xa, xb) = (a.element["ph"] as? String == "X", b.element["ph"] as? String == "X")
      return (ta, xa ? 0 : 1, a.offset) < (tb, xb ? 0 : 1, b.offset)
    }
    var stacks: [String: [Entry]] = [:]
    var bound = 0
    for (_, e) in ordered {
      let track = "\(e["pid"] as! Int)/\(e["tid"] as! Int)"
      let ph = e["ph"] as! String
      let ts = e["ts"] as! Int
      var stack = stacks[track] ?? []
      switch ph {
      case "X", "i":
        // A new slice or instant closes what has ended by then (instants end where they start).
        while let top = stack.last, top.end <= ts { stack.removeLast() }
        stack.append(Entry(ph: ph, ts: ts, end: ts + ((e["dur"] as? Int) ?? 0)))
      default:
        // A flow takes the top of the stack once ended slices are closed; instants stay.
        while let top = stack.last, top.ph == "X", top.end <= ts { stack.removeLast() }
        let top = try #require(stack.last, "\(name): flow \(e["id"] ?? "?") has no slice")
        #expect(top.ph == "X", "\(name): flow \(e["id"] ?? "?") binds to an instant at \(top.ts)")
        bound += 1
      }
      stacks[track] = stack
    }
    #expect(bound == trace.phase("s").count + trace.phase("f").count)
  }

  @Test func tourHasFlowsInstantsAndCounters() throws {
    let source = try exportSource("tour")
    let trace = try Trace(PerfettoExport.render(source))
    // Dependency edges whose both ends ran: download → decode, decode → resize, …
    #expect(trace.phase("s").count >= 6)
    let instants = trace.phase("i")
    func named(_ prefix: String) -> [[String: Any]] {
      instants.filter { ($0["name"] as? String)?.hasPrefix(prefix) == true }
    }
    #expect(named("cancelled").count == 2)  // prefetch (action) and warmCache (timeout)
    #expect(named("command: suspend network").count == 1)
    #expect(named("command: maxConcurrent network").count == 1)
    #expect(named("warning: ranAfterFailedDependency").count == 1)
    let network = try #require(source.projection.index(ofQueue: "network")) + 1
    let samples = trace.phase("C").filter { $0["pid"] as? Int == network }
    let values = samples.map { $0["args"] as! [String: Int] }
    #expect(values.first?["limit"] == 2 && values.last?["limit"] == 3)
    #expect(values.allSatisfy { ($0["executing"] ?? -1) >= 0 })
    #expect(values.last?["executing"] == 0)
    // The images queue has no limit: its samples have none (Perfetto would draw -1), and the
    // counter is named so the track reads "slots executing", not "executing executing".
    let images = try #require(source.projection.index(ofQueue: "images")) + 1
    let imageSamples = trace.phase("C").filter { $0["pid"] as? Int == images }
    #expect(!imageSamples.isEmpty)
    #expect(imageSamples.allSatisfy { ($0["args"] as! [String: Int])["limit"] == nil })
    #expect(trace.phase("C").allSatisfy { $0["name"] as? String == "slots" })
  }

  @Test func producedOperationsAreInstantsOnTheProducer() throws {
    let trace = try Trace(PerfettoExport.render(try exportSource("groups-and-produced")))
    let produced = trace.phase("i").filter { $0["cat"] as? String == "produce" }
      .compactMap { ($0["args"] as? [String: Any])?["produced"] as? String }
    #expect(Set(produced) == ["fetchExtra", "thumb1", "thumb2"])
  }

  @Test func unfinishedStatesLastUntilTheExportAndSaySo() throws {
    let source = try exportSource("tour", until: 5)
    let trace = try Trace(PerfettoExport.render(source))
    let open = trace.phase("X").filter {
      ($0["args"] as? [String: Any])?["unfinished"] as? Bool == true
    }
    #expect(!open.isEmpty)
    #expect(open.allSatisfy { ($0["ts"] as! Int) + ($0["dur"] as! Int) == 5_000_000 })
  }

  @Test func hostileNamesStayValidJSON() throws {
    let source = exportSource(hostileScenario())
    let text = PerfettoExport.render(source)
    let trace = try Trace(text)
    let names = trace.phase("M").compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
    #expect(names.contains("a\"b<c>&d|e;f#g`h\\i{j}[k]\u{7F}"))
    // Control characters and DEL are escaped: Perfetto's reader refuses them raw.
    #expect(text.contains("\\u007f") && text.contains("\\u0001"))
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F })
    #expect(names.contains("line\nbreak\u{1}ünï → λ"))
  }
}
