/// The contract between the board (OpsBoard) and the terminal (OpsTerminal). The terminal owns the
/// screen and the input loop; the board owns everything shown and what keys mean.
public protocol InteractiveBoard: AnyObject {
  /// Real seconds have passed since the last tick; a playing board advances its virtual clock by
  /// `elapsed × speed`.
  func tick(elapsed: Double)
  /// Handles one input. Returns false when the user asked to quit.
  func handle(_ input: KeyInput) -> Bool
  /// The whole screen for this size. `ascii` selects ASCII glyphs (non-UTF-8 locale or `--ascii`).
  func render(width: Int, height: Int, ascii: Bool) -> CellGrid
  /// Seconds until the board wants the next tick, or nil when nothing animates (paused, or the scenario
  /// is over): the terminal then blocks on input and uses no CPU.
  var nextFrameDelay: Double? { get }
  /// The board has ended by itself (a live source broke its protocol): the terminal restores the
  /// screen and returns, so the caller can say why.
  var hasEnded: Bool { get }
}

extension InteractiveBoard {
  public var hasEnded: Bool { false }
}
