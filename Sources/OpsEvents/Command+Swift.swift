/// The line of Foundation Swift a command stands for, so the board can show what a key does in code.
extension Command {
  /// `network.isSuspended = true`, `download.cancel()`, `network.maxConcurrentOperationCount = 3`.
  /// Names that are not Swift identifiers are made into one (`SwiftIdentifier`).
  public var swiftLine: String {
    switch self {
    case .cancel(let op): "\(SwiftIdentifier.make(op)).cancel()"
    case .cancelAll(let q): "\(SwiftIdentifier.make(q)).cancelAllOperations()"
    case .suspend(let q): "\(SwiftIdentifier.make(q)).isSuspended = true"
    case .resume(let q): "\(SwiftIdentifier.make(q)).isSuspended = false"
    case .setMaxConcurrent(let q, let value):
      "\(SwiftIdentifier.make(q)).maxConcurrentOperationCount = "
        + (value.map(String.init) ?? "OperationQueue.defaultMaxConcurrentOperationCount")
    }
  }
}

extension Command {
  /// The command a `command` event describes (its `command`, `target` and `value` fields).
  public init?(name: String, target: String, value: String?) {
    switch name {
    case "cancel": self = .cancel(operation: target)
    case "cancelAll": self = .cancelAll(queue: target)
    case "suspend": self = .suspend(queue: target)
    case "resume": self = .resume(queue: target)
    case "maxConcurrent":
      guard let value else { return nil }
      if value == "default" {
        self = .setMaxConcurrent(queue: target, value: nil)
      } else if let n = Int(value) {
        self = .setMaxConcurrent(queue: target, value: n)
      } else {
        return nil
      }
    default: return nil
    }
  }
}

/// A Swift variable name for a scenario name: kept when it already is one, otherwise its letters and
/// digits joined in lower camel case (`fetch photos` → `fetchPhotos`, `404` → `_404`).
public enum SwiftIdentifier {
  static let keywords: Set<String> = [
    "as", "break", "case", "catch", "class", "continue", "default", "defer", "do", "else", "enum",
    "extension", "fallthrough", "false", "for", "func", "guard", "if", "import", "in", "init",
    "internal", "is", "let", "nil", "operator", "private", "protocol", "public", "repeat",
    "return", "self", "static", "struct", "subscript", "super", "switch", "throw", "throws",
    "true", "try", "typealias", "var", "where", "while", "Any", "Self", "inout", "some", "any",
  ]

  public static func make(_ name: String) -> String {
    var words: [String] = []
    var current = ""
    for ch in name {
      if ch.isASCII && (ch.isLetter || ch.isNumber || ch == "_") {
        current.append(ch)
      } else if !current.isEmpty {
        words.append(current)
        current = ""
      }
    }
    if !current.isEmpty { words.append(current) }
    var id = words.enumerated().map { i, w in
      i == 0 ? w : w.prefix(1).uppercased() + w.dropFirst()
    }.joined()
    if id.isEmpty { id = "unnamed" }
    if id.first!.isNumber { id = "_" + id }
    return keywords.contains(id) ? "`\(id)`" : id
  }
}
