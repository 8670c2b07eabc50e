import OpsEngine
import OpsEvents

/// Dispatch: a key goes to whatever owns the keyboard now. A line being typed takes every key, then
/// a y/n question, then the help overlay (only its own keys); otherwise the shown view's own
/// bindings, then the global ones. A key bound nowhere here says where it does work, if anywhere.
extension BoardSession {
  public func handle(_ input: KeyInput) -> Bool {
    if input != .resize, isTooSmall { return handleTooSmall(input) }
    let before = (log: log.count, commands: keyCommands.count)
    ui.heldBack = nil
    let result = dispatch(input)
    let shownFirst = ui.heldBack.flatMap { $0.upperBound <= log.count ? log[$0] : nil } ?? []
    let first = KeyEffect.heldBack(shownFirst)
    noteKey(input, logBefore: before.log, commandsBefore: before.commands, shownFirst: first)
    // Said after the key's own words, so the status line does not look as if the key did it.
    if let first, let status = ui.status {
      ui.status = StatusMessage(status.text + " — " + first, status.kind)
    }
    return result
  }

  private func dispatch(_ input: KeyInput) -> Bool {
    if input == .resize { return true }
    ui.status = nil
    if ui.input != nil { return editInput(input) }
    if let c = ui.confirmation { return answer(c, input) }
    if ui.helpVisible { return handleInHelp(input) }
    guard let (binding, scope) = keyMap.binding(for: input, in: ui.view, beneath: ui.viewBeneath)
    else {
      ui.status = unboundMessage(input)
      return true
    }
    if case .view = scope, dispatchToView(binding.action, input) { return true }
    return perform(binding.action, input: input)
  }

  /// Below the minimum size only quit and redraw act, whatever owns the keyboard (a line being
  /// typed, a question); any other key waits, and the small screen says so.
  private func handleTooSmall(_ input: KeyInput) -> Bool {
    func bound(_ action: BoardAction) -> Bool {
      keyMap.bindings(in: .global).contains {
        $0.action == action && $0.keys.contains { $0.matches(input) }
      }
    }
    if bound(.quit) { return false }
    if !bound(.redraw) { ui.waitingKey = input }
    return true
  }

  /// "'+' does nothing here": and where it does something, if it does (refused: the target of
  /// the key is not on screen).
  private func unboundMessage(_ input: KeyInput) -> StatusMessage {
    let key = KeyPattern.quoted(input)
    guard let (view, binding) = keyMap.views(binding: input).first else {
      return StatusMessage("\(key) does nothing here: ? shows every key")
    }
    let target =
      switch binding.group {
      case .engine
      where [.suspendResume, .raiseLimit, .lowerLimit, .unlimited, .cancelAll]
        .contains(binding.action):
        ": the selected queue is not shown here"
      case .engine: ": the selected operation is not shown here"
      default: ""
      }
    let back = keyMap.keyLabel(.back, ascii: false) ?? "Esc"
    let how = view == .board ? "\(back) goes back to it" : "? shows every key"
    return StatusMessage(
      "\(key) works in the \(view) view (\(binding.description))\(target); \(how)", .rejected)
  }

  /// Sends a view one of its own actions. False when it leaves the action to the session.
  private func dispatchToView(_ action: BoardAction, _ input: KeyInput) -> Bool {
    var context = makeContext()
    let handled = ui.views.perform(ui.view, action, input: input, &context)
    apply(context)
    return handled
  }

  func makeContext() -> ViewContext {
    ViewContext(
      model: model, log: log[..<position], keyMap: keyMap, screen: screen, shared: ui.shared,
      status: ui.status)
  }

  /// Takes back what a view changed and does what it asked.
  private func apply(_ context: ViewContext) {
    ui.shared = context.shared
    ui.status = context.status
    switch context.request {
    case .open(let v)?: open(v)
    case .editFilter?:
      ui.input = TextInput(purpose: .filter, text: ui.shared.operations.query)
    case .editSearch?:
      let query = ui.views.log.query
      ui.input = TextInput(purpose: .search, text: query)
    case nil: break
    }
  }

  // MARK: - Help

  /// Help owns the keyboard while open: its keys scroll or close it; any other key does nothing
  /// but say so.
  private func handleInHelp(_ input: KeyInput) -> Bool {
    guard let (binding, _) = keyMap.binding(for: input, in: ui.view, helpOpen: true) else {
      let close = keyMap.bindings(in: .help).first { $0.action == .help }?.keys.first
      ui.status = StatusMessage(
        "help is open: \(KeyPattern.quoted(input)) does nothing until it closes; "
          + "↑↓ scroll it, \(close?.label(ascii: false) ?? "?") or Esc closes it")
      return true
    }
    switch binding.action {
    case .help: setHelp(false)
    case .redraw: break
    default: _ = ui.help.perform(binding.action, input: input)
    }
    return true
  }

  // MARK: - y/n

  private func answer(_ c: Confirmation, _ input: KeyInput) -> Bool {
    ui.confirmation = nil
    if case .cancelAll = c.effect, KeyDecisions.isYes(input) { showHeldBack() }
    carryOut(KeyDecisions.answer(c, input, in: model))
    return true
  }

  /// Does what a key decided.
  private func carryOut(_ outcome: KeyOutcome) {
    switch outcome {
    case .send(let command, let applied): send(command, applied: applied)
    case .cancelAll(let queue, let named):
      send(
        .cancelAll(queue: queue),
        applied: source.isLive
          ? "the \(named.count) operations of \(queue) you confirmed are cancelled, those still "
            + "unfinished"
          : "cancelAll on \(queue): every unfinished operation in it is cancelled",
        perform: { self.source.cancel(named: named, in: queue) })
    case .ask(let confirmation): ui.confirmation = confirmation
    case .restart:
      if let problem = restartFromScenario() {
        // The first line of the loader's report: the status line is one line.
        let first = problem.split(separator: "\n").first.map(String.init) ?? problem
        ui.status = StatusMessage(
          "cannot read the scenario again: \(first); nothing restarted", .rejected)
        ui.loadError = problem
      } else {
        ui.status = StatusMessage("restarted from the beginning", .applied)
      }
    case .toggle(let view): toggle(view)
    case .open(let view): open(view)
    case .say(let message): ui.status = message
    case .quit, .session: break
    }
  }

  /// Why a key of a scenario's own does nothing for a running program, or nil when it acts.
  static func notForALiveProgram(_ action: BoardAction) -> String? {
    switch action {
    case .restart: "r starts a scenario again: a running program goes on by itself (q quits)"
    case .slower, .faster: "a running program keeps its own pace: the speed is not the board's"
    case .resumePoint:
      "a running program cannot be played again from the past: Space goes back to the present"
    case .toggleQuiz: "the quiz looks ahead in a scenario: a running program's future is its own"
    case .nextMoment: "teaching moments are a scenario's: a running program has none"
    default: nil
    }
  }

  // MARK: - Typing a filter or a search

  private func editInput(_ input: KeyInput) -> Bool {
    guard var line = ui.input else { return true }
    switch input {
    case .escape:
      ui.input = nil
      commit(TextInput(purpose: line.purpose, text: ""))
      ui.status = StatusMessage(line.purpose == .filter ? "filter cleared" : "search cleared")
      return true
    case .enter:
      ui.input = nil
      commit(line)
      if line.purpose == .filter {
        ui.status = StatusMessage(
          line.text.isEmpty
            ? "no filter" : "filtering by \"\(line.text)\": / edits it, Esc clears it")
      }
      return true
    case .backspace: line.text = String(line.text.dropLast())
    case .character(let c): line.text.append(c)
    case .ctrl("u"): line.text = ""
    default:
      ui.status = StatusMessage("typing: Enter keeps it, Esc clears it")
      return true
    }
    ui.input = line
    // The filter applies as it is typed; a search looks when Enter is pressed.
    if line.purpose == .filter { ui.shared.operations.setQuery(line.text) }
    return true
  }

  private func commit(_ line: TextInput) {
    switch line.purpose {
    case .filter: ui.shared.operations.setQuery(line.text)
    case .search:
      var context = makeContext()
      ui.views.log.search(line.text, &context)
      ui.status = context.status
    }
  }

  // MARK: - Actions of the session

  func perform(_ action: BoardAction, input: KeyInput) -> Bool {
    if case .toggle(let view) = KeyDecisions.outcome(of: action, in: model, selection: ui.shared) {
      toggle(view)
      return true
    }
    if action == .nextMoment, ![.moment, .quiz].contains(ui.view), ui.trail.contains(.moment),
      past == nil
    {
      // From a view opened at a moment: as at the caption (the quiz asks there first).
      open(.moment)
    }
    if quizHolds(action) { return true }
    // Decide from everything the engine did (see `showHeldBack`), on a selection in range.
    if KeyDecisions.engineActions.contains(action), action != .cancelAll { showHeldBack() }
    if action == .openDetail || action == .cancelOperation { ui.shared.clampSelection(model) }
    // A source that takes no commands says so before any question (C asked y/n, then refused).
    if KeyDecisions.engineActions.contains(action), past == nil, let why = source.commandRefusal {
      ui.status = StatusMessage(why, .rejected)
      return true
    }
    if source.isLive, let why = Self.notForALiveProgram(action) {
      ui.status = StatusMessage(why, .rejected)
      return true
    }
    switch KeyDecisions.outcome(of: action, in: model, selection: ui.shared, live: source.isLive) {
    case .quit: return false
    case .session: break
    case let outcome:
      carryOut(outcome)
      return true
    }
    switch action {
    case .help: setHelp(true)
    case .back: back()
    case .pauseResume where past != nil:
      resumeFromReplay()
    case .pauseResume:
      setPaused(!paused)
      if paused {
        ui.status = StatusMessage(
          "paused at \(clockText(model.now))s: Space plays, . steps one event")
      } else if isOver {
        ui.status = StatusMessage("playing, but nothing more will happen: r restarts")
      } else {
        ui.status = StatusMessage("playing at \(BoardText.speed(speed))")
      }
    case .step where past != nil: travel(events: 1)
    case .step where quizTakes(action), .nextMoment where quizTakes(action),
      .continueMoment where quizTakes(action):
      break
    case .toggleQuiz: toggleQuiz()
    case .toggleTheme: toggleTheme()
    case .answerQuiz: answerQuiz(input)
    case .closeQuiz: closeQuiz()
    case .step: step()
    case .slower: changeSpeed(faster: false)
    case .faster: changeSpeed(faster: true)
    case .restart:
      ui.confirmation = Confirmation(
        question: "restart \(title) from the beginning"
          + (reloads ? ", reading its file again?" : "?"),
        effect: .restart)
    case .eventBack: travel(events: -1)
    case .eventForward: travel(events: 1)
    case .secondBack: travel(seconds: -1)
    case .secondForward: travel(seconds: 1)
    case .resumePoint: toggleResumePoint()
    case .nextMoment, .continueMoment: continueToNextMoment()
    case .redraw:
      break  // The terminal repaints everything on Ctrl-L; nothing changes here.
    default:
      ui.status = StatusMessage("\(KeyPattern.quoted(input)) does nothing here: ? shows every key")
    }
    return true
  }

  /// The views others are opened from and return to: the board, the presenter, a moment's caption.
  static let homeViews: Set<BoardView> = [.board, .presenter, .moment]

  /// Opens a view. Esc comes back: to a home view it was opened from (the board, the presenter, a
  /// moment's caption), or from the detail view to whatever it was opened from; a view opened from
  /// another side view (the log, the graph) returns where that one did.
  func open(_ view: BoardView) {
    if view == ui.view { return }
    if let i = ui.trail.lastIndex(of: view) {
      // Already under this one: going back to it.
      ui.trail.removeSubrange(i...)
    } else if view == .detail || Self.homeViews.contains(ui.view) {
      if ui.view != .board { ui.trail.append(ui.view) }
    } else {
      // In place of a side view: the detail view's own origin (a side view) goes with it.
      while let last = ui.trail.last, !Self.homeViews.contains(last) { ui.trail.removeLast() }
    }
    var context = makeContext()
    ui.views.opened(view, &context)
    ui.view = view
  }

  private func toggle(_ view: BoardView) {
    if view == .notes && notes.isEmpty && ui.view != .notes {
      ui.status = StatusMessage("this scenario has no notes", .rejected)
      return
    }
    if ui.view == view {
      back()
    } else if view == .presenter, ui.view == .moment {
      presentUnderMoment(!ui.views.moment.overPresenter)
    } else {
      open(view)
    }
  }

  /// P at a moment: the caption stays, the presenter layout (or the board) goes under it.
  private func presentUnderMoment(_ on: Bool) {
    ui.views.moment.overPresenter = on
    ui.returnView = momentReturnView
    let key = keyMap.keyLabel(.presenter, ascii: false) ?? "P"
    ui.status = StatusMessage(
      on
        ? "the presenter layout under the caption: Esc goes to it, \(key) again: the board"
        : "the board under the caption: Esc goes to it, \(key) again: the presenter layout")
  }

  /// Back to the view under this one (see `open`); on the board, clears the filter.
  func back() {
    if ui.view != .board {
      ui.view = ui.trail.popLast() ?? .board
    } else if ui.shared.operations.isFiltered {
      var list = ui.shared.operations
      list.setQuery("")
      list.setQueueFilter(nil)
      list.setStateFilter(nil)
      list.setHideFinished(false)
      ui.shared.operations = list
      ui.status = StatusMessage("filter cleared: every operation is shown")
    } else {
      ui.status = StatusMessage("nothing to close: q quits")
    }
  }

  private func step() {
    let wasPaused = paused
    setPaused(true)
    if revealOne() != nil, let entry = log.last {
      ui.status = StatusMessage((wasPaused ? "step: " : "paused; step: ") + entry.line)
    } else if source.isLive {
      ui.status = StatusMessage(
        "nothing new from the program yet: . shows its next event", .rejected)
    } else {
      ui.status = StatusMessage(
        "nothing left to step: the engine has nothing more scheduled", .rejected)
    }
  }

  /// The next speed of the ladder up or down; a speed between rungs goes to the next one.
  private func changeSpeed(faster: Bool) {
    let ladder = Self.speeds
    let bounds =
      "speeds go from \(BoardText.speed(ladder.first!)) to \(BoardText.speed(ladder.last!))"
    let next = faster ? ladder.first { $0 > speed + 1e-9 } : ladder.last { $0 < speed - 1e-9 }
    guard let target = next else {
      ui.status = StatusMessage(
        "already at the \(faster ? "fastest" : "slowest") speed, \(BoardText.speed(speed)) (\(bounds))",
        .rejected)
      return
    }
    setSpeed(target)
    ui.status = StatusMessage(
      "speed \(BoardText.speed(speed)): \(BoardText.speed(speed).dropLast()) virtual seconds per second"
    )
  }
}
