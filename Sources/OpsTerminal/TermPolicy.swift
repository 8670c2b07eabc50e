/// TERM values that cannot work, decided without terminfo.
public enum TermPolicy {
  /// The error for an unset/empty or "dumb" TERM; nil when terminfo has to decide.
  public static func problem(term: String) -> TerminalError? {
    if term.isEmpty || term == "dumb" { return .dumbTerminal(term) }
    return nil
  }
}
