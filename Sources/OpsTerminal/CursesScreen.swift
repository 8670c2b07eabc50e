import CNCursesW
import OpsCells

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One input event from the terminal, decoded.
enum ScreenEvent: Equatable {
  case key(KeyInput)
  /// The terminal went away (hangup, closed input).
  case hangup
}

/// The curses session: owns the screen from `start` to `end`, draws frames, reads input. Every call
/// happens on the main actor (ncurses is not thread-safe).
@MainActor
final class CursesScreen {
  private let screen: OpaquePointer
  private let window: UnsafeMutablePointer<WINDOW>
  private var styles: StyleTable
  private let mouse: Bool
  /// The frame on the screen; nil forces the next draw to write every cell.
  private var drawn: CellGrid?
  /// clearok was set (Ctrl-L, resize): refresh even when no cell changed.
  private var repaintPending = false
  private var ended = false
  /// Blocking reads that returned nothing in a row: a dead terminal, if it goes on.
  private var emptyBlockingReads = 0

  private(set) var width: Int
  private(set) var height: Int

  private init(
    screen: OpaquePointer, window: UnsafeMutablePointer<WINDOW>, styles: StyleTable, mouse: Bool
  ) {
    self.screen = screen
    self.window = window
    self.styles = styles
    self.mouse = mouse
    width = Int(max(0, getmaxx(window)))
    height = Int(max(0, getmaxy(window)))
  }

  /// Takes over the terminal on stdin/stdout.
  static func start(options: TerminalOptions) throws(TerminalError) -> CursesScreen {
    guard let screen = newterm(nil, opsview_stdout(), opsview_stdin()) else {
      let term = getenv("TERM").map { String(cString: $0) } ?? ""
      throw .initFailed("newterm failed for TERM='\(term)'")
    }
    guard let window = opsview_stdscr() else {
      endwin()
      delscreen(screen)
      throw .initFailed("no standard screen")
    }
    SignalGuard.cursesStarted()
    // Ctrl-C, Ctrl-Z, Ctrl-\ stay signals: ncurses suspends on Ctrl-Z, we quit on the others.
    cbreak()
    noecho()
    nonl()
    keypad(window, true)
    leaveok(window, true)  // the cursor is hidden; do not spend output moving it
    curs_set(0)
    set_escdelay(25)
    opsview_disable_flow_control(STDIN_FILENO)

    var support: ColorSupport?
    let noColor = getenv("NO_COLOR").map { String(cString: $0) }
    if ColorPolicy.useColor(
      option: options.color, noColor: noColor, terminalHasColors: has_colors()),
      start_color() == OK
    {
      let defaults = use_default_colors() == OK
      support = ColorSupport(
        colors: Int(opsview_colors()), pairs: Int(opsview_color_pairs()), defaultColors: defaults)
    }
    if options.mouse {
      mouseinterval(0)  // report presses at once instead of waiting to assemble clicks
      mousemask(mmask_t(MouseMasks.ncurses.all), nil)
    }
    return CursesScreen(
      screen: screen, window: window, styles: StyleTable(support: support), mouse: options.mouse)
  }

  /// Gives the terminal back: endwin restores its modes and leaves the alternate screen.
  func end() {
    guard !ended else { return }
    ended = true
    if mouse { mousemask(0, nil) }
    endwin()
    SignalGuard.cursesEnded()
    delscreen(screen)
  }

  /// Ctrl-Z: gives the terminal back as `end` does (the shell gets a usable terminal while the
  /// program is stopped), stops, and takes the screen again once continued.
  func suspendAndStop() {
    guard !ended else { return }
    if mouse { mousemask(0, nil) }
    endwin()
    SignalGuard.cursesEnded()
    SignalGuard.stopSelf()
    SignalGuard.cursesStarted()
    resume()
  }

  /// After SIGCONT: whoever had the terminal while the program was stopped (a shell after
  /// `kill -STOP`) may have put it back in cooked mode. Leaving and entering curses mode again
  /// restores the program's modes, the alternate screen and the keypad.
  func reenter() {
    guard !ended else { return }
    endwin()
    resume()
  }

  /// The first update after endwin puts the terminal back in the program's mode; the mouse is asked
  /// for again and the next frame is drawn whole.
  private func resume() {
    doupdate()
    if mouse {
      mouseinterval(0)
      mousemask(mmask_t(MouseMasks.ncurses.all), nil)
    }
    resized()
  }

  /// The terminal changed size (ncurses has already resized the screen): re-read it, repaint all.
  func resized() {
    width = Int(max(0, getmaxx(window)))
    height = Int(max(0, getmaxy(window)))
    forceRepaint()
  }

  /// Ctrl-L and resizes: clear the terminal and write every cell again on the next draw.
  func forceRepaint() {
    clearok(window, true)
    drawn = nil
    repaintPending = true
  }

  /// Writes the cells that differ from the frame on screen, then one refresh. Returns whether
  /// anything was written.
  @discardableResult
  func draw(_ grid: CellGrid) -> Bool {
    let changed = Glyph.cellsToDraw(GridDiff.changedIndices(from: drawn, to: grid), in: grid)
    guard !changed.isEmpty || repaintPending else { return false }
    let columns = min(grid.width, width)
    let rows = min(grid.height, height)
    var cell = cchar_t()
    var text: [wchar_t] = Array(repeating: 0, count: 6)
    for index in changed {
      let y = index / max(1, grid.width)
      let x = index - y * grid.width
      guard x < columns, y < rows else { continue }
      let source = grid.cells[index]
      let (style, define) = styles.style(
        foreground: source.foreground, background: source.background, attributes: source.attributes)
      if let define {
        opsview_init_pair(define.pair, define.foreground, define.background)
      }
      let continued = x + 1 < columns && grid.cells[index + 1].character == CellWidth.continuation
      if source.character == CellWidth.continuation {
        // The right half of a wide character is drawn with it; on its own it is a blank.
        if x > 0, grid.cells[index - 1].character != CellWidth.continuation,
          CellWidth.columns(grid.cells[index - 1].character) == 2
        {
          continue
        }
      }
      let (scalars, drawnWidth) =
        source.character == CellWidth.continuation
        ? ([UInt32(0x20)], 1)
        : Glyph.cell(for: source.character, cells: continued ? 2 : 1) { Int(opsview_wcwidth($0)) }
      for (offset, scalar) in scalars.enumerated() { text[offset] = wchar_t(bitPattern: scalar) }
      text[scalars.count] = 0
      // A character the terminal draws narrow in two cells: blank the second one.
      let blankAfter = continued && drawnWidth == 1
      opsview_setcchar(&cell, text, attr_t(style.attributes), style.pair)
      // The bottom-right cell reports ERR (the cursor cannot advance past it) but is drawn.
      mvwadd_wch(window, Int32(y), Int32(x), &cell)
      if blankAfter {
        var blank = cchar_t()
        let space: [wchar_t] = [0x20, 0]
        opsview_setcchar(&blank, space, attr_t(style.attributes), style.pair)
        mvwadd_wch(window, Int32(y), Int32(x + 1), &blank)
      }
    }
    wnoutrefresh(window)
    doupdate()
    drawn = grid
    repaintPending = false
    return true
  }

  /// Waits up to `timeout` ms (-1: until input) for input, then takes whatever else is already
  /// queued (key repeat, pasted text), so a burst is handled before the next frame is drawn.
  func readEvents(timeout: Int32, limit: Int = 64) -> [ScreenEvent] {
    var events: [ScreenEvent] = []
    wtimeout(window, timeout)
    var blocking = timeout < 0
    var reads = 0
    while reads < limit {
      reads += 1
      let read = readOne(blocking: blocking)
      guard case .some(let result) = read else { break }
      if let event = result {
        events.append(event)
        if event == .hangup { break }
      }
      // After the first input, take only what is already waiting.
      if blocking || timeout != 0 {
        wtimeout(window, 0)
        blocking = false
      }
    }
    return events
  }

  /// nil: nothing arrived (timeout, signal); .some(nil): an input the board has no name for.
  private func readOne(blocking: Bool) -> ScreenEvent?? {
    var value: wint_t = 0
    let status = wget_wch(window, &value)
    if status == ERR {
      // A timeout, a signal (EINTR), or a terminal that is gone and reads end-of-file forever.
      guard SignalGuard.pendingSignal == nil, !SignalGuard.jobControlPending else { return nil }
      if opsview_input_hung_up(STDIN_FILENO) != 0 { return .some(.hangup) }
      if blocking {
        emptyBlockingReads += 1
        if emptyBlockingReads >= 100 { return .some(.hangup) }
      }
      return nil
    }
    emptyBlockingReads = 0
    if status == opsview_key_code_yes() {
      // wint_t is unsigned on Linux and signed on Darwin: keep the bits either way.
      let code = Int32(truncatingIfNeeded: value)
      if code == KEY_MOUSE { return .some(readMouse()) }
      if code == KEY_RESIZE { resized() }
      return .some(KeyDecoder.decode(.keyCode(code)).map(ScreenEvent.key))
    }
    let key = KeyDecoder.decode(.character(UInt32(truncatingIfNeeded: value)))
    if key == .ctrl("l") { forceRepaint() }
    return .some(key.map(ScreenEvent.key))
  }

  private func readMouse() -> ScreenEvent? {
    var event = MEVENT()
    guard getmouse(&event) == OK else { return nil }
    return KeyDecoder.decodeMouse(x: Int(event.x), y: Int(event.y), buttons: UInt32(event.bstate))
      .map(ScreenEvent.key)
  }
}
