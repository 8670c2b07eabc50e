import ArgumentParser
import Foundation
import OpsBoard
import OpsCells
import OpsTerminal

/// Runs a board on the terminal until the user quits; the one place `play` and `replay` leave to
/// ncurses. Exits 2 when there is no usable terminal.
/// A board session: the display options' theme applies to it.
func runOnTerminal(_ session: BoardSession, _ display: DisplayOptions) throws {
  session.theme = display.theme
  try runOnTerminal(board: session, display)
}

/// Any board (a session, or one wrapping a session such as `attach`'s).
func runOnTerminal(board: some InteractiveBoard, _ display: DisplayOptions) throws {
  #if DEBUG
    // The end-to-end tests need a real trap on the board (what a learner would meet after a bug):
    // OPSVIEW_TEST_TRAP_KEY=! makes that key trap, in debug builds only.
    if let key = ProcessInfo.processInfo.environment["OPSVIEW_TEST_TRAP_KEY"]?.first {
      return try runUntilQuit(TrappingBoard(board, key: key), display)
    }
  #endif
  try runUntilQuit(board, display)
}

private func runUntilQuit(_ board: some InteractiveBoard, _ display: DisplayOptions) throws {
  // The command runs on the main thread (assumeIsolated checks it); the caller reads the board
  // after it returns (`play --save-actions`), on that same thread.
  nonisolated(unsafe) let board = board
  let outcome = MainActor.assumeIsolated {
    Result { () throws(TerminalError) in
      try TerminalApp.run(
        board, options: TerminalOptions(mouse: !display.noMouse, ascii: display.ascii))
    }
  }
  switch outcome {
  case .success(let reason):
    if reason.exitCode != 0 { throw ExitCode(reason.exitCode) }
  case .failure(let error):
    printError("\(error)")
    throw Exit.usage
  }
}

/// Checks the terminal before anything is written, so a usage error leaves no file behind.
func preflightTerminal() throws {
  do {
    try TerminalApp.preflight()
  } catch {
    printError("\(error)")
    throw Exit.usage
  }
}

#if DEBUG
  /// A board whose one key traps (see `OPSVIEW_TEST_TRAP_KEY`).
  private final class TrappingBoard<Inner: InteractiveBoard>: InteractiveBoard {
    let inner: Inner
    let key: Character
    init(_ inner: Inner, key: Character) {
      self.inner = inner
      self.key = key
    }
    func tick(elapsed: Double) { inner.tick(elapsed: elapsed) }
    func handle(_ input: KeyInput) -> Bool {
      if case .character(key) = input { fatalError("the test's trap key") }
      return inner.handle(input)
    }
    func render(width: Int, height: Int, ascii: Bool) -> CellGrid {
      inner.render(width: width, height: height, ascii: ascii)
    }
    var nextFrameDelay: Double? { inner.nextFrameDelay }
    var hasEnded: Bool { inner.hasEnded }
  }
#endif
