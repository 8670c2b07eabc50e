import CNCursesW

/// Signals and crash safety around the curses session.
///
/// The state lives in `static` C variables in shim.h, and every Swift object file that calls a static
/// inline C function gets its own copy of it: ALL calls to those helpers stay in this one file.
enum SignalGuard {
  /// Installs the quit handlers (SIGINT, SIGTERM, SIGHUP, SIGQUIT: note the signal, the loop restores
  /// the terminal) and the last-resort crash handlers. Must run before `newterm`, so ncurses sees our
  /// handlers and does not install its own for SIGINT/SIGTERM.
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
}
