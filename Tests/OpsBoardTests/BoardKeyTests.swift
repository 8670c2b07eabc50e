import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

private func chars(_ text: String) -> [KeyInput] { text.map { KeyInput.character($0) } }

/// The rendered operations table's visible operation names (rows that start with a name).
private func visibleOperations(_ s: BoardSession, width: Int = 80, height: Int = 24) -> [String] {
  let text = s.render(width: width, height: height, ascii: false).text
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  let layout = BoardLayout(width: width, height: height, queueCount: s.model.queues.count)
  let rows = layout.operationRows
  return (rows.y..<rows.maxY).compactMap { y in
    let line = lines[y].dropFirst(2)
    return line.split(separator: " ").first.map(String.init).flatMap {
      s.model.operation(named: $0)?.name
    }
  }
}

@Suite("BoardKeys: each key's effect on the engine and the board")
struct BoardKeyTests {
  @Test func suspendAndResumeTheSelectedQueue() {
    let s = photoSession()
    s.advance(by: 1)
    #expect(s.selectedQueue == "network")
    press(s, .character("s"))
    #expect(s.runtime.events.contains { $0.kind == .queueSuspended(queue: "network") })
    #expect(s.model.queue(named: "network")!.suspended)
    #expect(s.status?.kind == .applied)
    #expect(
      s.log.suffix(2).map(\.line) == [
        "1.00  network  ⌨ key: suspend",
        "1.00  network  queue suspended: nothing new starts, running operations continue",
      ])
    let screen = s.render(width: 80, height: 24, ascii: false).text
    #expect(screen.contains("›network ‖ suspended"))
    #expect(screen.contains("⌨ key: suspend"))
    press(s, .character("s"))
    #expect(!s.model.queue(named: "network")!.suspended)
    #expect(s.log.last?.line == "1.00  network  queue resumed")
  }

  @Test func tabSelectsQueuesAndShiftTabGoesBack() {
    let s = photoSession()
    press(s, .tab)
    #expect(s.selectedQueue == "images")
    press(s, .tab, .tab)
    #expect(s.selectedQueue == "network")
    press(s, .backTab)
    #expect(s.selectedQueue == "ui")
    press(s, .character("s"))
    #expect(s.model.queue(named: "ui")!.suspended)
  }

  @Test func plusAndMinusChangeTheLimit() {
    let s = photoSession()
    press(s, .character("+"))
    #expect(s.model.queue(named: "network")!.maxConcurrent == 3)
    #expect(
      s.runtime.events.contains { $0.kind == .queueMaxConcurrent(queue: "network", value: 3) })
    // Raising the limit starts the waiting fetchAvatar at once.
    #expect(s.model.queue(named: "network")!.executing == 3)
    #expect(
      s.status
        == StatusMessage(
          "network maxConcurrent 2 → 3: waiting operations may start at once", .applied))
    press(s, .character("-"), .character("-"), .character("-"))
    #expect(s.model.queue(named: "network")!.maxConcurrent == 0)
    // Lowering stops nothing that runs.
    #expect(s.model.queue(named: "network")!.executing == 3)
    press(s, .character("-"))
    #expect(s.model.queue(named: "network")!.maxConcurrent == 0)
    #expect(s.status?.kind == .rejected)
    #expect(s.status?.text.contains("already allows 0") == true)
    s.advance(by: 12)
    #expect(s.model.queue(named: "network")!.executing == 0)
    #expect(s.model.queue(named: "network")!.counts[.ready] == 1)
    press(s, .character("+"))
    #expect(s.model.queue(named: "network")!.executing == 1)
  }

  @Test func minusFromUnlimitedSetsTheNumberExecuting() {
    let s = photoSession()
    s.select(queue: "images")
    #expect(s.model.queue(named: "images")!.executing == 2)
    press(s, .character("+"))
    #expect(s.status == StatusMessage("images is unlimited (∞) already: - sets a limit", .rejected))
    press(s, .character("-"))
    #expect(s.model.queue(named: "images")!.maxConcurrent == 2)
    #expect(s.model.queue(named: "images")!.executing == 2)
    #expect(s.log.contains { $0.line == "0.00  images  ⌨ key: maxConcurrent 2" })
  }

  @Test func cancelTheSelectedOperation() {
    let s = photoSession()
    s.select(operation: "resize")
    press(s, .character("c"))
    let resize = s.model.operation(named: "resize")!
    #expect(resize.cancelled && resize.cancelCause == .command)
    #expect(resize.state == .finished)
    #expect(s.status?.kind == .applied)
    // x is the same key; cancelling twice explains itself.
    s.select(operation: "decode")
    press(s, .character("x"))
    #expect(s.model.operation(named: "decode")!.cancelled)
  }

  @Test func cancellingAFinishedOperationSaysTooLate() {
    let s = photoSession()
    s.advance(by: 5)
    s.select(operation: "download")
    let before = s.model.operation(named: "download")!
    press(s, .character("c"))
    #expect(s.status?.kind == .rejected)
    #expect(s.status?.text.contains("too late") == true)
    #expect(s.model.operation(named: "download")! == before)
    #expect(s.log.suffix(2).first?.event.kind == .cancelTooLate(operation: "download"))
    #expect(s.log.last?.event.kind.type == "warning")
  }

  @Test func cancelAllCancelsTheSelectedQueue() {
    let s = photoSession()
    s.select(queue: "images")
    press(s, .character("C"))
    #expect(s.isConfirming && s.model.queue(named: "images")!.cancelled == 0)
    #expect(
      screenLines(s).dropLast().last!.contains(
        "cancel every unfinished operation of images (7)? y/n"))
    press(s, .escape)
    #expect(s.model.queue(named: "images")!.cancelled == 0)
    #expect(s.status?.text == "not confirmed: nothing changed")
    press(s, .character("C"), .character("y"))
    #expect(s.model.queue(named: "images")!.cancelled == 7)
    press(s, .character("C"), .character("y"))
    #expect(s.status?.kind == .rejected)
  }

  @Test func dotRevealsExactlyOneEventAtATime() {
    let s = photoSession()
    s.advance(by: 3.5)
    let seq = s.model.lastSeq
    let total = s.runtime.eventCount
    #expect(seq == total)
    press(s, .character("."))
    // The engine took its next step (download finishing at 4s, publishing many events) but the board
    // shows one.
    #expect(s.model.lastSeq == seq + 1)
    #expect(s.runtime.eventCount > seq + 1)
    #expect(s.unrevealedCount == s.runtime.eventCount - seq - 1)
    #expect(s.model.now == 4)
    #expect(s.status?.text.hasPrefix("step: 4.00  download  executing → finishing") == true)
    let engineCount = s.runtime.eventCount
    press(s, .character("."), .character("."))
    #expect(s.model.lastSeq == seq + 3)
    #expect(s.runtime.eventCount == engineCount)
    #expect(
      s.render(width: 80, height: 24, ascii: false).text.contains(
        "‖ paused · \(s.unrevealedCount) to show"))
  }

  @Test func dotWhilePlayingPausesFirst() {
    let s = photoSession(paused: false)
    press(s, .character("."))
    #expect(s.paused)
    #expect(s.status?.text.hasPrefix("paused; step:") == true)
  }

  @Test func spaceTogglesPlaybackAndTheClockFollowsSpeed() {
    let s = photoSession()
    #expect(s.nextFrameDelay == nil)
    s.tick(elapsed: 1)
    #expect(s.model.now == 0)
    press(s, .character(" "))
    #expect(!s.paused)
    #expect(s.nextFrameDelay != nil)
    s.tick(elapsed: 0.5)
    #expect(s.model.now == 0.5)
    press(s, .character(">"))
    #expect(s.speed == 2)
    s.tick(elapsed: 1)
    #expect(s.model.now == 2.5)
    press(s, .character("<"), .character("<"))
    #expect(s.speed == 0.5)
    press(s, .character(" "))
    #expect(s.paused && s.nextFrameDelay == nil)
  }

  @Test func spaceShowsWhatSteppingHeldBack() {
    let s = photoSession()
    s.advance(by: 3.5)
    press(s, .character("."))
    #expect(s.unrevealedCount > 0)
    press(s, .character(" "))
    #expect(s.unrevealedCount == 0)
    #expect(s.model.lastSeq == s.runtime.eventCount)
  }

  @Test func nothingAnimatesOnceTheScenarioIsOver() {
    let s = photoSession(paused: false)
    for _ in 0..<40 { s.tick(elapsed: 1) }
    #expect(s.isOver)
    #expect(s.nextFrameDelay == nil)
    let now = s.model.now
    s.tick(elapsed: 5)
    #expect(s.model.now == now)
    press(s, .character("."))
    #expect(s.status?.kind == .rejected)
    #expect(s.render(width: 80, height: 24, ascii: false).text.contains("■ done"))
  }

  @Test func restartBeginsAgainFromTheFactory() {
    let s = photoSession()
    s.advance(by: 6)
    press(s, .character("s"))
    press(s, .character("r"))
    // Restarting is destructive: it asks first, and anything but y leaves the run alone.
    #expect(s.isConfirming)
    #expect(screenLines(s).dropLast().last!.contains("restart Photo app from the beginning? y/n"))
    press(s, .character("n"))
    #expect(s.model.now == 6 && !s.isConfirming)
    press(s, .character("r"), .character("y"))
    #expect(s.model.now == 0)
    #expect(s.model.lastSeq == s.runtime.eventCount)
    #expect(!s.model.queue(named: "network")!.suspended)
    #expect(!s.log.contains { $0.isCommand })
    #expect(s.status?.text == "restarted from the beginning")
  }

  @Test func filterByNameQueueOrState() {
    let s = photoSession()
    s.advance(by: 5)
    press(s, .character("/"))
    #expect(s.isEditingFilter)
    for k in chars("exec") { press(s, k) }
    #expect(visibleOperations(s) == ["fetchAvatar", "decode", "rateApp", "warmCache"])
    #expect(
      s.render(width: 80, height: 24, ascii: false).text.split(separator: "\n").last!.hasPrefix(
        " / exec▏"))
    press(s, .enter)
    #expect(!s.isEditingFilter && s.filter == "exec")
    // The selection stays among the matches.
    press(s, .down)
    #expect(s.selectedOperation == "decode")
    // Filtering by queue.
    press(s, .character("/"), .backspace, .backspace, .backspace, .backspace)
    for k in chars("ui") { press(s, k) }
    press(s, .enter)
    #expect(visibleOperations(s) == ["render", "banner"])
    press(s, .escape)
    #expect(s.filter.isEmpty)
    #expect(visibleOperations(s).count == 9)
  }

  @Test func escWhileTypingClearsTheFilter() {
    let s = photoSession()
    press(s, .character("/"))
    for k in chars("zzz") { press(s, k) }
    #expect(visibleOperations(s).isEmpty)
    #expect(s.render(width: 80, height: 24, ascii: false).text.contains("nothing matches \"zzz\""))
    press(s, .escape)
    #expect(!s.isEditingFilter && s.filter.isEmpty)
  }

  @Test func selectionMovesAndScrolls() {
    let s = photoSession()
    _ = s.render(width: 80, height: 24, ascii: false)
    #expect(s.selectedOperation == "download")
    press(s, .down, .character("j"))
    #expect(s.selectedOperation == "fetchAvatar")
    press(s, .character("k"))
    #expect(s.selectedOperation == "prefetch")
    press(s, .end)
    #expect(s.selectedOperation == "warmCache")
    #expect(visibleOperations(s).last == "warmCache")
    press(s, .home)
    #expect(s.selectedOperation == "download")
    press(s, .pageDown)
    #expect(s.selectedOperation == "render")
    press(s, .pageUp)
    #expect(s.selectedOperation == "download")
    press(s, .up)
    #expect(s.selectedOperation == "download")
  }

  @Test func mouseClickSelectsTheRowAndTheWheelScrolls() {
    let s = photoSession()
    _ = s.render(width: 80, height: 24, ascii: false)
    let layout = BoardLayout(width: 80, height: 24, queueCount: 3)
    press(s, .mouseClick(x: 5, y: layout.operationRows.y + 3))
    #expect(s.selectedOperation == "decode")
    press(s, .mouseClick(x: 5, y: layout.queueRows!.y + 2))
    #expect(s.selectedQueue == "ui")
    press(s, .scrollDown)
    #expect(s.selectedOperation == "upload")
    press(s, .scrollUp)
    #expect(s.selectedOperation == "decode")
  }

  @Test func viewsOpenAndCloseWithTheirKeys() {
    let s = photoSession()
    press(s, .enter)
    #expect(s.view == .detail)
    press(s, .escape)
    #expect(s.view == .board)
    press(s, .character("g"))
    #expect(s.view == .graph)
    press(s, .enter)
    #expect(s.view == .detail)
    press(s, .escape)
    #expect(s.view == .graph)
    press(s, .character("g"))
    #expect(s.view == .board)
    press(s, .character("l"))
    #expect(s.view == .log)
    // In the log n is the next search match; from the board it opens the notes.
    press(s, .character("n"))
    #expect(s.view == .log)
    press(s, .escape, .character("n"))
    #expect(s.view == .notes)
    press(s, .escape)
    #expect(s.view == .board)
    press(s, .character("?"))
    #expect(s.helpVisible)
    press(s, .down)
    #expect(s.helpVisible)
    press(s, .escape)
    #expect(!s.helpVisible)
    press(s, .escape)
    #expect(s.status?.text == "nothing to close: q quits")
  }

  @Test func quitAndUnknownKeys() {
    let s = photoSession()
    press(s, .character("U"))
    #expect(s.status?.text == "'U' does nothing here: ? shows every key")
    press(s, .ctrl("l"))
    press(s, .resize)
    #expect(!s.handle(.character("q")))
    // With help open, q closes it; the next q quits.
    press(s, .character("?"), .character("q"))
    #expect(!s.helpVisible)
    #expect(!s.handle(.character("q")))
  }
}
