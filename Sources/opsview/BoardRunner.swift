import ArgumentParser
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
