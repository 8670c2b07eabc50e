/// The name of a view. A new view is its file (its component), a line in `ViewRegistry` and its
/// property in `ViewStates`.
public struct BoardView: Hashable, Sendable, CustomStringConvertible {
  public let name: String
  public init(_ name: String) { self.name = name }
  public var description: String { name }
}

/// A screen of the board: its own state, its own keys and footer, and how it draws. The session
/// keeps one of each in `ViewStates` (their state survives closing them) and sends a view the actions of its own
/// bindings; actions it leaves (cancel, detail, the queue keys) go to the session.
protocol ViewComponent: Sendable {
  static var id: BoardView { get }
  /// Help's heading for its keys.
  static var title: String { get }
  /// The key that opens it from anywhere (and closes it again); nil for the main board.
  static var opener: KeyBinding? { get }
  /// Its own keys: they win over the global ones while it is shown.
  static var bindings: [KeyBinding] { get }
  /// The footer while it is shown, in order (help and quit are added at the right).
  static var footer: [BoardAction] { get }

  init()
  /// Called when it is opened from another view.
  mutating func opened(_ context: inout ViewContext)
  /// One of its own bindings was pressed. Returns false to leave the action to the session.
  mutating func perform(_ action: BoardAction, input: KeyInput, _ context: inout ViewContext)
    -> Bool
  /// Draws the body of the screen (between the header and the status line).
  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState)
}

extension ViewComponent {
  mutating func opened(_ context: inout ViewContext) {}
}

/// What a view may read and change while it handles a key.
struct ViewContext {
  let model: BoardModel
  /// Every event shown so far (the full log).
  let log: ArraySlice<LogEntry>
  let keyMap: KeyMap
  let screen: (width: Int, height: Int)
  var shared: SharedState
  var status: StatusMessage?
  /// Something only the session can do.
  var request: ViewRequest?
}

enum ViewRequest: Equatable {
  case open(BoardView)
  /// Start typing the operations filter.
  case editFilter
  /// Start typing a search of the log.
  case editSearch
}

/// Every view, in the order help lists them. Adding a view: its file, a line here and its property
/// in `ViewStates`.
enum ViewRegistry {
  static let all: [any ViewComponent.Type] = [
    MainView.self, DetailView.self, GraphView.self, TimelineView.self, LogView.self,
    WarningsView.self, NotesView.self, MomentView.self, PresenterView.self, QuizView.self,
  ]

  static func type(of id: BoardView) -> (any ViewComponent.Type)? { all.first { $0.id == id } }
}
