import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

/// The operations table's rows, by name, in the order shown (80×24).
private func rows(_ s: BoardSession, _ w: Int = 80, _ h: Int = 24) -> [String] {
  let lines = screenLines(s, w, h)
  let table = BoardLayout(width: w, height: h, queueCount: s.model.queues.count).operations
  return (table.y + 2..<table.maxY).compactMap { y in
    lines[y].dropFirst(2).split(separator: " ").first {
      s.model.operation(named: String($0)) != nil
    }
    .map(String.init)
  }
}

@Suite("BoardConventions: sort, hide finished, quick filters, search, confirmations")
struct BoardConventionTests {
  @Test func sortCyclesWithAVisibleIndicatorAndReverses() {
    let s = photoSession()
    s.advance(by: 5)
    press(s, .character("o"))  // by name
    var shown = rows(s)
    #expect(shown == shown.sorted(), "\(shown)")
    #expect(screenText(s).contains("by name ▲"))
    #expect(screenText(s).contains("operation ▲"))
    press(s, .character("O"))
    shown = rows(s)
    #expect(shown == shown.sorted().reversed())
    #expect(screenText(s).contains("by name ▼"))
    press(s, .character("o"))  // by state
    let states = rows(s).map { s.model.operation(named: $0)!.state }
    #expect(states == states.sorted())
    press(s, .character("o"), .character("o"))  // time in state: the longest first
    let entered = rows(s).map { s.model.operation(named: $0)!.enteredState }
    #expect(entered == entered.sorted())
    #expect(screenText(s).contains("in state ▼"))
    press(s, .character("o"))  // next to start: ready ones first, by priority
    #expect(screenText(s).contains("by next to start"))
    let order = rows(s).map { s.model.operation(named: $0)!.state }
    let firstStarted = order.firstIndex { $0 >= .executing } ?? order.count
    #expect(order[firstStarted...].allSatisfy { $0 >= .executing }, "\(order)")
    // The selection stays on its operation whatever the order.
    s.select(operation: "resize")
    press(s, .character("o"))
    #expect(s.selectedOperation == "resize")
    #expect(screenLines(s).contains { $0.hasPrefix("› resize") })
  }

  @Test func hideFinishedAndQuickFilters() {
    let s = photoSession()
    s.advance(by: 8)
    let finished = s.model.operations.filter { $0.state == .finished }.map(\.name)
    #expect(!finished.isEmpty)
    press(s, .character("h"))
    #expect(rows(s).allSatisfy { !finished.contains($0) })
    #expect(screenText(s).contains("finished hidden"))
    press(s, .character("h"), .character("f"))  // only the selected queue (network)
    #expect(rows(s).allSatisfy { s.model.operation(named: $0)!.queue == "network" })
    #expect(screenText(s).contains("queue network"))
    press(s, .character("f"), .character("F"))  // waiting ones
    #expect(rows(s).allSatisfy { s.model.operation(named: $0)!.state < .executing })
    press(s, .character("F"))  // running ones
    #expect(rows(s).allSatisfy { s.model.operation(named: $0)!.state == .executing })
    press(s, .escape)
    #expect(rows(s).count == min(9, s.model.operations.count))
  }

  @Test func searchTheLogWithNextMatch() {
    let s = photoSession()
    s.advance(by: 8)
    press(s, .character("l"), .character("/"))
    type(s, "decode")
    press(s, .enter)
    let firstMatch = s.status?.text ?? ""
    #expect(firstMatch.contains("\"decode\" at event"), "\(firstMatch)")
    // The match is highlighted on screen.
    let grid = s.render(width: 80, height: 24, ascii: false)
    let hit = (2..<22).first { y in
      grid.text.split(separator: "\n", omittingEmptySubsequences: false)[y].contains("decode")
        && grid[5, y].attributes.contains(.reverse)
    }
    #expect(hit != nil)
    press(s, .character("n"))
    #expect(s.status?.text != firstMatch)
    #expect(s.status?.text.contains("\"decode\" at event") == true)
    press(s, .character("N"))
    #expect(s.status?.text == firstMatch)
    #expect(s.view == .log)
  }

  @Test func starRestoresNoLimit() {
    let s = photoSession()
    s.select(queue: "network")
    press(s, .character("*"))
    #expect(s.model.queue(named: "network")?.maxConcurrent == nil)
    #expect(s.status?.text == "network maxConcurrent 2 → ∞: waiting operations may start at once")
    press(s, .character("-"), .character("*"))
    #expect(s.model.queue(named: "network")?.maxConcurrent == nil)
    press(s, .character("*"))
    #expect(s.status?.kind == .rejected)
  }

  @Test func groupsShowTheirChildrenAsAFoldableTree() {
    let s = builtInSession("groups-and-produced")
    s.advance(by: 0.5)
    let shown = rows(s)
    let group = shown.firstIndex(of: "importAlbum")!
    #expect(Array(shown[(group + 1)...(group + 3)]) == ["fetchList", "fetchPhotos", "fetchTags"])
    #expect(screenText(s).contains("▾ importAlbum"))
    s.select(operation: "importAlbum")
    press(s, .character("e"))
    #expect(!rows(s).contains("fetchList"))
    #expect(screenText(s).contains("▸ importAlbum"))
    press(s, .character("e"))
    #expect(rows(s).contains("fetchList"))
  }

  @Test func producedByAndGroupsInTheDetailAndTheGraph() {
    let s = builtInSession("groups-and-produced")
    s.advance(by: 2.5)
    s.select(operation: "thumb1")
    press(s, .enter)
    #expect(screenText(s, 120, 40).contains("produced by scan while it executed"))
    press(s, .escape)
    s.select(operation: "importAlbum")
    press(s, .enter)
    let detail = screenText(s, 120, 60)
    #expect(detail.contains("Children (the group waits for them) (4)"), "\(detail)")
    press(s, .escape, .character("g"))
    let graph = screenText(s, 120, 40)
    // Children join their group with dashed edges; a produced operation hangs off its producer.
    #expect(graph.contains("fetchList ◄┄"), "\(graph)")
    #expect(graph.contains("scan ◇┄"), "\(graph)")
    #expect(graph.contains("a ◄── b: b waits for a"))
  }
}
