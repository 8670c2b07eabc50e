/// How the board is shown. The CLI fills this from its flags.
public struct TerminalOptions: Sendable, Equatable {
  /// Capture clicks and the wheel. Off (`--no-mouse`) leaves the mouse to the terminal, so text can be copied.
  public var mouse: Bool
  /// Force ASCII glyphs even in a UTF-8 locale (`--ascii`).
  public var ascii: Bool
  /// true/false forces colours on/off; nil decides: off when NO_COLOR is set or the terminal has none.
  public var color: Bool?

  public init(mouse: Bool = true, ascii: Bool = false, color: Bool? = nil) {
    self.mouse = mouse
    self.ascii = ascii
    self.color = color
  }
}

/// Why the board cannot start. The messages point at `opsview trace`, which needs no terminal.
public enum TerminalError: Error, CustomStringConvertible, Equatable, Sendable {
  /// stdin or stdout is not a terminal (piped, redirected, or run without one).
  case notATerminal
  /// The terminal cannot address the cursor: TERM is unset (empty string), "dumb", or has no usable
  /// terminfo entry. Holds the TERM value.
  case dumbTerminal(String)
  /// ncurses refused to start; holds what failed.
  case initFailed(String)

  public var description: String {
    let fallback = "use `opsview trace` for a text trace instead."
    switch self {
    case .notATerminal:
      return
        "opsview: the board needs an interactive terminal, but stdin or stdout is not one; \(fallback)"
    case .dumbTerminal(let term) where term.isEmpty:
      return
        "opsview: TERM is not set, so the board cannot be drawn; set TERM (for example xterm-256color) or \(fallback)"
    case .dumbTerminal("dumb"):
      return "opsview: the terminal is 'dumb' and cannot show the board; \(fallback)"
    case .dumbTerminal(let term):
      return
        "opsview: the terminal type '\(term)' has no usable terminfo entry, so the board cannot be drawn; \(fallback)"
    case .initFailed(let what):
      return "opsview: the terminal could not be set up (\(what)); \(fallback)"
    }
  }
}

/// Why `TerminalApp.run` returned. The terminal has been restored either way.
public enum ExitReason: Equatable, Sendable {
  /// The board asked to quit (`q`).
  case quit
  /// A signal ended the board (SIGINT, SIGTERM, SIGHUP, SIGQUIT; a terminal that went away counts as SIGHUP).
  case signal(Int32)

  /// The conventional process status: 0 for quit, 128 + n for signal n.
  public var exitCode: Int32 {
    switch self {
    case .quit: 0
    case .signal(let number): 128 + number
    }
  }
}
