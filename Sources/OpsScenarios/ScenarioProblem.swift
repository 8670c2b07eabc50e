/// One thing wrong with a scenario file, with where it is and, for near-miss names, what was meant.
public struct ScenarioProblem: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file path, or `builtin:NAME` for an embedded scenario.
  public var file: String
  /// 1-based; nil when the problem has no place in the text (a missing file, a file too large).
  public var line: Int?
  /// 1-based, counted in Unicode scalars (as libyaml counts).
  public var column: Int?
  /// The key path of the offending value, e.g. `operations[2].conditions[0].result`; "" for the whole file.
  public var path: String
  /// What is wrong and what was expected, naming the path.
  public var message: String
  /// A near-miss name that probably was meant.
  public var suggestion: String?

  public init(
    file: String, line: Int? = nil, column: Int? = nil, path: String = "", message: String,
    suggestion: String? = nil
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.path = path
    self.message = message
    self.suggestion = suggestion
  }

  /// `FILE:LINE:COLUMN: error: MESSAGE — did you mean 'X'?`, the style compilers use, so editors can jump.
  public var description: String {
    var place = file
    if let line {
      place += ":\(line)"
      if let column { place += ":\(column)" }
    }
    var text = "\(place): error: \(message)"
    if let suggestion { text += " — did you mean '\(suggestion)'?" }
    return text
  }
}

/// Every problem found in a scenario (validation does not stop at the first one).
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
  public var problems: [ScenarioProblem]

  public init(problems: [ScenarioProblem]) { self.problems = problems }

  /// One problem per line.
  public var description: String { problems.map(\.description).joined(separator: "\n") }
}
