import OpsEngine
import OpsEvents

/// One look per state, used in every pane: the colour, a glyph, and attributes so that the state
/// still reads on a monochrome terminal or under NO_COLOR (the word is always beside the glyph).
enum StateLook {
  static func color(_ s: OperationState) -> CellColor {
    switch s {
    case .initialized: .gray
    case .pending: .yellow
    case .evaluatingConditions: .magenta
    case .ready: .cyan
    case .executing: .blue
    case .finishing: .white
    case .finished: .green
    }
  }

  static func attributes(_ s: OperationState) -> CellAttributes {
    switch s {
    case .initialized, .finished: .dim
    case .evaluatingConditions: .underline
    case .executing, .finishing: .bold
    case .pending, .ready: []
    }
  }

  static func style(_ s: OperationState) -> Style {
    Style(fg: color(s), attrs: attributes(s))
  }

  static func glyph(_ s: OperationState, ascii: Bool) -> Character {
    switch s {
    case .initialized: ascii ? "." : "·"
    case .pending: ascii ? "o" : "○"
    case .evaluatingConditions: ascii ? "?" : "◐"
    case .ready: ascii ? "+" : "◎"
    case .executing: ascii ? "*" : "●"
    case .finishing: ascii ? "~" : "◑"
    case .finished: ascii ? "=" : "✓"
    }
  }

  /// The word in narrow columns: the full state name except `evaluating` for evaluatingConditions.
  static func word(_ s: OperationState) -> String {
    s == .evaluatingConditions ? "evaluating" : s.rawValue
  }

  static let cancelled = Style(fg: .red, attrs: .bold)
  static func cancelledGlyph(ascii: Bool) -> Character { ascii ? "X" : "✕" }
}

/// Marks for conditions, in the table and the detail view.
enum ConditionLook {
  static func glyph(_ s: ConditionInfo.Status, ascii: Bool) -> Character {
    switch s {
    case .waiting: ascii ? "." : "·"
    case .evaluating: ascii ? "?" : "◐"
    case .satisfied: ascii ? "+" : "✓"
    case .failed: ascii ? "x" : "✗"
    case .abandoned: ascii ? "-" : "–"
    case .waitingForExclusivity: ascii ? "w" : "⊘"
    case .holdsLock: ascii ? "L" : "◆"
    case .released: ascii ? "-" : "◇"
    }
  }

  static func style(_ s: ConditionInfo.Status) -> Style {
    switch s {
    case .waiting, .released, .abandoned: .dim
    case .evaluating: Style(fg: .magenta, attrs: .underline)
    case .satisfied: Style(fg: .green)
    case .failed: Style(fg: .red, attrs: .bold)
    case .waitingForExclusivity: Style(fg: .yellow, attrs: .bold)
    case .holdsLock: Style(fg: .blue, attrs: .bold)
    }
  }

  static func word(_ s: ConditionInfo.Status) -> String {
    switch s {
    case .waiting: "not evaluated yet"
    case .evaluating: "evaluating"
    case .satisfied: "satisfied"
    case .failed: "failed"
    case .abandoned: "never evaluated"
    case .waitingForExclusivity: "waiting for exclusivity"
    case .holdsLock: "holds the lock"
    case .released: "lock released"
    }
  }

  /// What a condition row says: `loggedIn: satisfied`, `Alert lock: waiting, held by banner`.
  static func describe(_ c: ConditionInfo) -> String {
    var text = c.displayName + ": "
    switch c.status {
    case .waitingForExclusivity: text += "waiting" + (c.holder.map { ", held by \($0)" } ?? "")
    case .holdsLock: text += "held while it executes"
    case .released: text += "released"
    case .waiting where c.category != nil: text += "not requested yet"
    default: text += word(c.status)
    }
    if let e = c.error, c.status == .failed { text += " (\(e))" }
    return text
  }
}
