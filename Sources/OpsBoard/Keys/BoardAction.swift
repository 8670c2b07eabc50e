/// Something a key does. Actions are named values rather than one enum, so a view declares its own
/// beside its drawing code (`LogView.search`) and the key map, help and footer need no other edit.
public struct BoardAction: Hashable, Sendable, CustomStringConvertible {
  public let name: String
  public init(_ name: String) { self.name = name }
  public var description: String { name }
}

/// Actions available in every view (the session handles them).
extension BoardAction {
  public static let quit = BoardAction("quit")
  public static let help = BoardAction("help")
  public static let back = BoardAction("back")
  public static let redraw = BoardAction("redraw")
  public static let pauseResume = BoardAction("pauseResume")
  public static let step = BoardAction("step")
  public static let slower = BoardAction("slower")
  public static let faster = BoardAction("faster")
  public static let restart = BoardAction("restart")
  public static let eventBack = BoardAction("eventBack")
  public static let eventForward = BoardAction("eventForward")
  public static let secondBack = BoardAction("secondBack")
  public static let secondForward = BoardAction("secondForward")
  public static let resumePoint = BoardAction("resumePoint")
}

/// Moving through a list or a document: every view binds these to its own meaning (the selection on
/// the board, the lines of the log).
extension BoardAction {
  public static let up = BoardAction("up")
  public static let down = BoardAction("down")
  public static let pageUp = BoardAction("pageUp")
  public static let pageDown = BoardAction("pageDown")
  public static let first = BoardAction("first")
  public static let last = BoardAction("last")
  public static let wheel = BoardAction("wheel")
}

/// Actions on the selected operation or queue; views that show the target bind them.
extension BoardAction {
  public static let openDetail = BoardAction("openDetail")
  public static let cancelOperation = BoardAction("cancelOperation")
  public static let suspendResume = BoardAction("suspendResume")
  public static let raiseLimit = BoardAction("raiseLimit")
  public static let lowerLimit = BoardAction("lowerLimit")
  public static let unlimited = BoardAction("unlimited")
  public static let cancelAll = BoardAction("cancelAll")
  public static let nextQueue = BoardAction("nextQueue")
  public static let previousQueue = BoardAction("previousQueue")
  public static let clickSelect = BoardAction("clickSelect")
}
