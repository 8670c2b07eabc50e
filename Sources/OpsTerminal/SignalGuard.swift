import CTerminalSignals

/// Signals and crash safety around the curses session (the handlers and their state are in C:
/// Sources/CTerminalSignals).
public enum SignalGuard {
  /// What job control asks of the loop.
  enum JobControl {
    /// Ctrl-Z (SIGTSTP): give the terminal back, then stop.
    case stop
    /// Continued (SIGCONT) after a stop the program may not have seen (`kill -STOP`): the shell may
    /// have reset the terminal meanwhile, so curses mode is entered again.
    case continued
  }

  /// Installs the quit handlers (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
  /// SIGPIPE: note the signal, the loop restores the terminal), the job-control handlers and the
  /// last-resort crash handlers. Must run before `newterm`, so ncurses sees our handlers and does not
  /// install its own for SIGINT/SIGTERM/SIGTSTP.
  static func install() throws(TerminalError) {
    guard opsview_install_signal_handlers() == 0 else {
      throw .initFailed("could not install signal handlers")
    }
  }

  /// The quit signal that arrived, if any.
  static var pendingSignal: Int32? {
    let number = opsview_pending_signal()
    return number == 0 ? nil : number
  }

  /// The job control that arrived since the last call (taking it stops the nudging).
  static func takeJobControl() -> JobControl? {
    switch opsview_take_job_control() {
    case 1: .stop
    case 2: .continued
    default: nil
    }
  }

  /// Whether job control is waiting to be taken (the read loop stops reading then).
  static var jobControlPending: Bool { opsview_peek_job_control() != 0 }

  /// Stops the process as Ctrl-Z would; returns once it is continued. Restore the terminal first.
  static func stopSelf() {
    opsview_stop_self()
  }

  /// The loop is over: stop re-delivering a seen signal and ignore further quit signals while the
  /// terminal is restored, so none interrupts those writes.
  static func hold() {
    opsview_hold_quit_signals()
  }

  /// The terminal is restored: give every signal back to its previous handler.
  static func restore() {
    opsview_restore_signal_handlers()
  }

  /// Curses owns the screen from here: stderr is held back and crash handlers call endwin.
  static func cursesStarted() {
    opsview_stderr_capture_begin()
    opsview_set_curses_active(1)
  }

  /// Curses has let go of the screen (endwin done): show what stderr received meanwhile.
  static func cursesEnded() {
    opsview_set_curses_active(0)
    opsview_stderr_capture_end()
  }

  /// What the crash handler says once the terminal is restored (where the backtrace is written).
  public static func setCrashNote(_ note: String) {
    opsview_set_crash_note(note)
  }

  /// A temporary file to remove if opsview ends (a signal, an exit) before it is put in place;
  /// nil forgets it.
  public static func setCleanupPath(_ path: String?) {
    if let path { opsview_set_cleanup_path(path) } else { opsview_set_cleanup_path(nil) }
  }
}
