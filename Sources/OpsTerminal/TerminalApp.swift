import CNCursesW
import OpsCells

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs an `InteractiveBoard` full-screen: the only way the program touches the terminal.
public enum TerminalApp {
  /// Checks that stdin and stdout are terminals and TERM names a terminal that can address the
  /// cursor, without touching the screen. Call it first, so failures are plain messages.
  public static func preflight() throws(TerminalError) {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
    let term = getenv("TERM").map { String(cString: $0) } ?? ""
    if let problem = TermPolicy.problem(term: term) { throw problem }
    guard opsview_terminfo_status(term) == 0 else { throw .dumbTerminal(term) }
  }

  /// Runs the input/draw loop until the board asks to quit, a quit signal arrives (SIGINT, SIGTERM,
  /// SIGHUP, SIGQUIT) or the terminal goes away. The terminal is restored (endwin) before this returns
  /// or throws; a crash restores it from a last-resort signal handler.
  @MainActor
  public static func run(_ board: some InteractiveBoard, options: TerminalOptions)
    throws(TerminalError)
    -> ExitReason
  {
    setlocale(LC_ALL, "")  // before curses starts, or multi-byte glyphs go out as raw bytes
    let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
    let ascii = options.ascii || !LocalePolicy.isUTF8(codeset: codeset)
    try preflight()
    try SignalGuard.install()

    let screen: CursesScreen
    do {
      screen = try CursesScreen.start(options: options)
    } catch {
      SignalGuard.restore()
      throw error
    }
    defer {
      SignalGuard.hold()
      screen.end()
      SignalGuard.restore()
    }
    return runLoop(board, screen: screen, ascii: ascii)
  }

  @MainActor
  private static func runLoop(_ board: some InteractiveBoard, screen: CursesScreen, ascii: Bool)
    -> ExitReason
  {
    let clock = ContinuousClock()
    var lastTick = clock.now
    screen.draw(board.render(width: screen.width, height: screen.height, ascii: ascii))
    while true {
      if let signal = SignalGuard.pendingSignal { return .signal(signal) }
      if let job = SignalGuard.takeJobControl() {
        switch job {
        case .stop: screen.suspendAndStop()
        case .continued: screen.reenter()
        }
        // Time spent stopped is not played back.
        lastTick = clock.now
        _ = SignalGuard.takeJobControl()  // the SIGCONT that ended our own stop
      }
      let delay = board.nextFrameDelay
      let timeout = FramePacing.timeoutMilliseconds(
        nextFrameDelay: delay, sinceLastTick: seconds(lastTick.duration(to: clock.now)))
      let events = screen.readEvents(timeout: timeout)

      // Time passed up to now, then the inputs happened: tick first. A board that was not animating
      // gets no tick, so the time spent paused is not played back when it resumes.
      let now = clock.now
      if let delay {
        let measured = seconds(lastTick.duration(to: now))
        board.tick(elapsed: FramePacing.tickElapsed(measured: measured, requestedDelay: delay))
      }
      lastTick = now
      if board.hasEnded { return .quit }

      for event in events {
        switch event {
        case .hangup:
          return .signal(SIGHUP)
        case .key(let key):
          guard board.handle(key) else { return .quit }
        }
      }
      if SignalGuard.pendingSignal != nil { continue }  // exit without drawing another frame
      screen.draw(board.render(width: screen.width, height: screen.height, ascii: ascii))
    }
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) * 1e-18
  }
}
