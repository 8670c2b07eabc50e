/// Everything a key can do on the board.
public enum BoardAction: String, Sendable, CaseIterable {
  case selectUp, selectDown, pageUp, pageDown, first, last
  case nextQueue, previousQueue, openDetail, back
  case suspendResume, raiseLimit, lowerLimit, cancelOperation, cancelAll
  case pauseResume, step, slower, faster, restart
  case filter, graph, log, notes, help, quit, redraw
  case clickSelect, wheelScroll
  case warnings, timeline, zoomIn, zoomOut
  case eventBack, eventForward, secondBack, secondForward, resumePoint
}

/// The screens of the board. The help overlay is drawn over any of them.
public enum BoardView: String, Sendable, CaseIterable {
  case board, detail, graph, log, notes, timeline, warnings
}

/// What an input must be to trigger a binding.
public enum KeyPattern: Sendable, Equatable {
  case key(KeyInput)
  /// Any mouse click.
  case click
  /// The scroll wheel, either way.
  case wheel

  public func matches(_ input: KeyInput) -> Bool {
    switch (self, input) {
    case (.key(let k), _): k == input
    case (.click, .mouseClick): true
    case (.wheel, .scrollUp), (.wheel, .scrollDown): true
    default: false
    }
  }

  public func label(ascii: Bool) -> String {
    switch self {
    case .click: "click"
    case .wheel: "wheel"
    case .key(let k):
      switch k {
      case .up: ascii ? "Up" : "↑"
      case .down: ascii ? "Down" : "↓"
      case .left: ascii ? "Left" : "←"
      case .right: ascii ? "Right" : "→"
      case .pageUp: "PgUp"
      case .pageDown: "PgDn"
      case .home: "Home"
      case .end: "End"
      case .enter: "Enter"
      case .escape: "Esc"
      case .tab: "Tab"
      case .backTab: "Shift-Tab"
      case .backspace: "Backspace"
      case .function(let n): "F\(n)"
      case .ctrl(let c): "Ctrl-" + String(c).uppercased()
      case .character(" "): "Space"
      case .character(let c): String(c)
      case .mouseClick: "click"
      case .scrollUp, .scrollDown: "wheel"
      case .resize: "resize"
      }
    }
  }
}

/// One entry of the key map: the keys, what they do, and how help and the footer show them.
public struct KeyBinding: Sendable {
  public enum Group: String, Sendable, CaseIterable {
    case select = "Select"
    case engine = "Change the engine (logged as commands)"
    case clock = "Clock"
    case travel = "Time travel (while paused)"
    case views = "Views"
    case other = "Other"
  }

  public let action: BoardAction
  /// The first key is the primary one; the rest are alternatives.
  public let keys: [KeyPattern]
  public let description: String
  public let group: Group
  /// The footer's word for it, if the footer shows it.
  public let footer: String?
  /// The views whose footer shows it.
  public let footerViews: Set<BoardView>
  /// Kept at the right end of the footer when space runs out.
  public let pinned: Bool

  public init(
    _ action: BoardAction, _ keys: [KeyPattern], _ description: String, group: Group,
    footer: String? = nil, in views: Set<BoardView> = [.board], pinned: Bool = false
  ) {
    self.action = action
    self.keys = keys
    self.description = description
    self.group = group
    self.footer = footer
    self.footerViews = views
    self.pinned = pinned
  }

  public func keysLabel(ascii: Bool) -> String {
    keys.map { $0.label(ascii: ascii) }.joined(separator: " ")
  }
}

/// An item of the one-line footer: merged bindings sharing a footer word (`↑↓ move`, `+/- limit`).
public struct FooterItem: Sendable, Equatable {
  public let keys: String
  public let label: String
  public let actions: [BoardAction]
  public let pinned: Bool
  public var text: String { keys + " " + label }
}

/// The key map is data: input handling, the help overlay and the footer all read it, so they cannot
/// disagree.
public struct KeyMap: Sendable {
  public let bindings: [KeyBinding]

  public init(bindings: [KeyBinding]) { self.bindings = bindings }

  public func binding(for input: KeyInput) -> KeyBinding? {
    bindings.first { $0.keys.contains { $0.matches(input) } }
  }

  public func binding(for action: BoardAction) -> KeyBinding? {
    bindings.first { $0.action == action }
  }

  /// The footer's items for a view, in key-map order; adjacent bindings with the same word merge.
  public func footerItems(for view: BoardView, ascii: Bool) -> [FooterItem] {
    var items: [FooterItem] = []
    for b in bindings {
      guard let word = b.footer, b.footerViews.contains(view), let key = b.keys.first else {
        continue
      }
      let label = key.label(ascii: ascii)
      if let last = items.last, last.label == word {
        // Arrow pairs read as one key (`↑↓`); anything else is separated (`+/-`).
        let arrows = "←↑→↓".contains(label) && last.keys.allSatisfy { "←↑→↓".contains($0) }
        items[items.count - 1] = FooterItem(
          keys: last.keys + (arrows ? "" : "/") + label, label: word,
          actions: last.actions + [b.action], pinned: last.pinned || b.pinned)
      } else {
        items.append(FooterItem(keys: label, label: word, actions: [b.action], pinned: b.pinned))
      }
    }
    return items
  }

  public static let standard = KeyMap(bindings: [
    KeyBinding(
      .selectUp, [.key(.up), .key(.character("k"))],
      "select the operation above (scroll in a view)",
      group: .select, footer: "move",
      in: [.board, .detail, .graph, .log, .notes, .timeline, .warnings]),
    KeyBinding(
      .selectDown, [.key(.down), .key(.character("j"))],
      "select the operation below (scroll in a view)",
      group: .select, footer: "move",
      in: [.board, .detail, .graph, .log, .notes, .timeline, .warnings]),
    KeyBinding(
      .pauseResume, [.key(.character(" "))],
      "pause or resume the virtual clock (replaying: resume from the point p chose)",
      group: .clock, footer: "pause", in: [.board, .detail, .graph, .log, .timeline]),
    KeyBinding(
      .step, [.key(.character("."))], "step one event (pauses first)", group: .clock,
      footer: "step",
      in: [.board, .detail, .graph, .log]),
    KeyBinding(.pageUp, [.key(.pageUp)], "a page up", group: .select),
    KeyBinding(.pageDown, [.key(.pageDown)], "a page down", group: .select),
    KeyBinding(.first, [.key(.home)], "the first operation (the top of a view)", group: .select),
    KeyBinding(.last, [.key(.end)], "the last operation (the end of a view)", group: .select),
    KeyBinding(.nextQueue, [.key(.tab)], "select the next queue", group: .select, footer: "queue"),
    KeyBinding(.previousQueue, [.key(.backTab)], "select the previous queue", group: .select),
    KeyBinding(
      .clickSelect, [.click], "select the operation or queue under the pointer", group: .select),
    KeyBinding(.wheelScroll, [.wheel], "scroll the operations or the view", group: .select),
    KeyBinding(
      .suspendResume, [.key(.character("s"))], "suspend or resume the selected queue",
      group: .engine,
      footer: "suspend"),
    KeyBinding(
      .raiseLimit, [.key(.character("+")), .key(.character("="))],
      "raise the queue's limit by one (maxConcurrent; timeline: zoom in)",
      group: .engine, footer: "limit"),
    KeyBinding(
      .lowerLimit, [.key(.character("-")), .key(.character("_"))],
      "lower it by one, down to 0 (from ∞: to the number executing, at least 1; in the timeline: zoom out)",
      group: .engine, footer: "limit"),
    KeyBinding(
      .cancelOperation, [.key(.character("c")), .key(.character("x"))],
      "cancel the selected operation",
      group: .engine, footer: "cancel", in: [.board, .detail, .graph]),
    KeyBinding(
      .cancelAll, [.key(.character("C"))],
      "cancel every operation of the selected queue (cancelAll)",
      group: .engine),
    KeyBinding(.slower, [.key(.character("<"))], "halve the speed", group: .clock, footer: "speed"),
    KeyBinding(
      .faster, [.key(.character(">"))], "double the speed", group: .clock, footer: "speed"),
    KeyBinding(
      .restart, [.key(.character("r"))], "restart the scenario from the beginning", group: .clock),
    KeyBinding(
      .eventBack, [.key(.left)], "show the moment one event earlier (header says replaying)",
      group: .travel, footer: "travel", in: [.board, .timeline]),
    KeyBinding(
      .eventForward, [.key(.right)], "one event later (at the present, replaying ends)",
      group: .travel, footer: "travel", in: [.board, .timeline]),
    KeyBinding(.secondBack, [.key(.character("["))], "one virtual second earlier", group: .travel),
    KeyBinding(.secondForward, [.key(.character("]"))], "one virtual second later", group: .travel),
    KeyBinding(
      .resumePoint, [.key(.character("p"))],
      "choose where Space resumes: the present, or here (the runtime is rebuilt from the scenario and "
        + "the key commands sent before this moment are re-applied at their times)",
      group: .travel),
    KeyBinding(
      .openDetail, [.key(.enter)], "details of the selected operation", group: .views,
      footer: "detail"),
    KeyBinding(
      .filter, [.key(.character("/"))], "filter operations by name, queue or state (Esc clears)",
      group: .views, footer: "filter"),
    KeyBinding(
      .graph, [.key(.character("g"))], "graph of every dependency, left to right", group: .views,
      footer: "graph"),
    KeyBinding(.log, [.key(.character("l"))], "the full event log", group: .views, footer: "log"),
    KeyBinding(
      .timeline, [.key(.character("t"))], "timeline: one row per operation, time across",
      group: .views, footer: "timeline"),
    KeyBinding(
      .zoomIn, [.key(.character("z"))], "zoom the timeline in (+ too, inside the timeline)",
      group: .views, footer: "zoom", in: [.timeline]),
    KeyBinding(
      .zoomOut, [.key(.character("Z"))], "zoom the timeline out (- too, inside the timeline)",
      group: .views, footer: "zoom", in: [.timeline]),
    KeyBinding(
      .warnings, [.key(.character("w"))], "the warnings: what went wrong, and why",
      group: .views, footer: "warnings"),
    KeyBinding(
      .notes, [.key(.character("n"))], "the scenario's notes", group: .views, footer: "notes"),
    KeyBinding(
      .back, [.key(.escape)], "back: close the view or help, or clear the filter", group: .views,
      footer: "back", in: [.detail, .graph, .log, .notes, .timeline, .warnings]),
    KeyBinding(
      .help, [.key(.character("?")), .key(.function(1))], "this help", group: .other,
      footer: "help",
      in: Set(BoardView.allCases), pinned: true),
    KeyBinding(.redraw, [.key(.ctrl("l"))], "redraw the screen", group: .other),
    KeyBinding(
      .quit, [.key(.character("q"))], "quit", group: .other, footer: "quit",
      in: Set(BoardView.allCases),
      pinned: true),
  ])
}
