import OpsEngine
import OpsEvents

/// A message in the status line: what the last key did, or why it could not.
public struct StatusMessage: Sendable, Equatable {
  public enum Kind: Sendable, Equatable { case info, applied, rejected }
  public var text: String
  public var kind: Kind

  public init(_ text: String, _ kind: Kind = .info) {
    self.text = text
    self.kind = kind
  }
}

/// A destructive key waiting for y or n in the status line (as k9s asks).
struct Confirmation: Equatable {
  enum Effect: Equatable {
    /// `operations`: the unfinished operations the question counted; a `y` applies to them only.
    case cancelAll(queue: String, operations: [String])
    case restart
  }
  let question: String
  let effect: Effect
}

/// A line being typed at the bottom: the operations filter or a search of the log.
struct TextInput {
  enum Purpose { case filter, search }
  let purpose: Purpose
  var text: String
}

/// What the user is looking at: the view, each view's own state, the selection, what is being typed
/// or confirmed, and the status. Separate from the model (which is only the engine's story) so time
/// travel can swap the model under it.
struct BoardUIState {
  var view: BoardView = .board
  /// The views under the one shown, the nearest last: Esc goes to the last one, and from there to
  /// the one before (the board, the root, is never in it). A view opened from the presenter or from
  /// a moment's caption returns there; the detail view returns to the view it was opened from.
  var trail: [BoardView] = []
  /// Where Esc goes from the view shown. Setting it makes it the only view under this one (a moment
  /// sets where its caption returns to).
  var returnView: BoardView {
    get { trail.last ?? .board }
    set { trail = newValue == .board ? [] : [newValue] }
  }
  /// Each view's state, kept while it is closed (created when first shown).
  var views = ViewStates()
  var shared = SharedState()
  var helpVisible = false
  var help = HelpOverlay()
  var input: TextInput?
  var confirmation: Confirmation?
  var status: StatusMessage?
  /// A command sent to a live program, waiting for the program's answer (its events) to say in
  /// the status line what it did: the board never claims an effect it has not seen.
  var awaitingReply: (command: Command, applied: String)?
  /// The last key and what it did, in words (the presenter layout shows it).
  var lastKey: KeyEffect?
  /// The log entries the key being handled showed before it acted: the rest of an instant that a
  /// moment held back (see `KeyEffect.heldBack`).
  var heldBack: Range<Int>?
  /// A key pressed while the screen was below the minimum size: it waited (the small screen says so).
  var waitingKey: KeyInput?
  /// Why the scenario file did not load (`--watch`, or r), shown until a reload succeeds.
  var loadError: String?

  /// The view under the one shown whose keys work too: the board or the presenter under a moment's
  /// caption (its steering and selection keys act there, with the caption kept up).
  var viewBeneath: BoardView? {
    guard view == .moment else { return nil }
    return views.moment.overPresenter ? .presenter : .board
  }
}

/// The header's facts that do not come from the model.
struct PlaybackInfo {
  var title: String
  var speed: Double
  var paused: Bool
  /// Events published by the engine but not yet shown (stepping reveals them one at a time).
  var unrevealed: Int
  /// The engine has nothing more scheduled and every event is shown.
  var finished: Bool
  /// Operations that have not finished (when `finished`, they never will).
  var unfinished: Int
  /// While time travelling: events shown of those revealed.
  var showingPast: (shown: Int, of: Int)?
  var resumeFrom: ResumePoint = .present
  /// What the board runs over, when it is not the virtual scenario ("recording").
  var sourceLabel: String? = nil
  /// The source is a running program: pausing stops the view, not the program.
  var live = false
  /// Some of the story's events never reached the board (see `EventSource.missedEvents`).
  var missedEvents = false
  /// Quiz mode's score (right of asked), when it is on.
  var quiz: (right: Int, asked: Int)? = nil
}
