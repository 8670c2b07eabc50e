import OpsEngine

extension BoardSession {
  /// Handles one input. Every key either does something visible or says in the status line why not.
  public func handle(_ input: KeyInput) -> Bool {
    if input == .resize { return true }
    ui.status = nil
    if ui.filterEditing { return editFilter(input) }
    if ui.helpVisible, let done = handleInHelp(input) { return done }
    guard let binding = keyMap.binding(for: input) else {
      ui.status = StatusMessage("\(describe(input)) does nothing here: ? shows every key")
      return true
    }
    return perform(binding.action, input: input)
  }

  private func describe(_ input: KeyInput) -> String {
    let label = KeyPattern.key(input).label(ascii: false)
    return label.count == 1 ? "'\(label)'" : label
  }

  /// Keys while help is shown: scrolling and closing it; nil lets the key act on the board (which
  /// closes help first).
  private func handleInHelp(_ input: KeyInput) -> Bool? {
    switch keyMap.binding(for: input)?.action {
    case .help?, .back?:
      ui.helpVisible = false
      return true
    case .selectUp?: ui.helpScroll = max(0, ui.helpScroll - 1)
    case .selectDown?: ui.helpScroll += 1
    case .pageUp?: ui.helpScroll = max(0, ui.helpScroll - 10)
    case .pageDown?: ui.helpScroll += 10
    case .quit?: return false
    default:
      ui.helpVisible = false
      return nil
    }
    return true
  }

  // MARK: - Filter

  private func editFilter(_ input: KeyInput) -> Bool {
    switch input {
    case .escape:
      ui.filterEditing = false
      ui.operations.setQuery("")
      ui.status = StatusMessage("filter cleared")
    case .enter:
      ui.filterEditing = false
      let q = ui.operations.query
      ui.status = StatusMessage(
        q.isEmpty ? "no filter" : "filtering by \"\(q)\": / edits it, Esc clears it")
    case .backspace:
      ui.operations.setQuery(String(ui.operations.query.dropLast()))
    case .character(let c):
      ui.operations.setQuery(ui.operations.query + String(c))
    case .ctrl("u"):
      ui.operations.setQuery("")
    default:
      ui.status = StatusMessage("typing a filter: Enter keeps it, Esc clears it")
    }
    return true
  }

  // MARK: - Actions

  func perform(_ action: BoardAction, input: KeyInput) -> Bool {
    switch action {
    case .quit: return false
    case .help:
      ui.helpVisible = true
      ui.helpScroll = 0
    case .selectUp: move(-1)
    case .selectDown: move(1)
    case .pageUp: move(-pageSize)
    case .pageDown: move(pageSize)
    case .first: move(Int.min / 2)
    case .last: move(Int.max / 2)
    case .nextQueue: cycleQueue(1)
    case .previousQueue: cycleQueue(-1)
    case .openDetail:
      if ui.view == .detail {
        ui.status = StatusMessage("already showing the details: Esc goes back")
      } else if selectedOperation == nil || ui.operations.count(model) == 0 {
        ui.status = StatusMessage("no operation to show", .rejected)
      } else {
        open(.detail)
      }
    case .back: back()
    case .suspendResume: suspendOrResume()
    case .raiseLimit where ui.view == .timeline, .zoomIn where ui.view == .timeline:
      zoomTimeline(in: true)
    case .lowerLimit where ui.view == .timeline, .zoomOut where ui.view == .timeline:
      zoomTimeline(in: false)
    case .zoomIn, .zoomOut:
      ui.status = StatusMessage("\(describe(input)) zooms the timeline: t opens it", .rejected)
    case .raiseLimit: changeLimit(up: true)
    case .lowerLimit: changeLimit(up: false)
    case .cancelOperation: cancelSelected()
    case .cancelAll: cancelAllOfQueue()
    case .pauseResume where replay != nil:
      resumeFromReplay()
    case .pauseResume:
      setPaused(!paused)
      if paused {
        ui.status = StatusMessage(
          "paused at \(clockText(model.now))s: Space plays, . steps one event")
      } else if isOver {
        ui.status = StatusMessage("playing, but nothing more will happen: r restarts")
      } else {
        ui.status = StatusMessage("playing at \(Vocabulary.speed(speed))")
      }
    case .step where replay != nil: travel(events: 1)
    case .step: step()
    case .slower: changeSpeed(0.5)
    case .faster: changeSpeed(2)
    case .restart:
      restart()
      ui.status = StatusMessage("restarted from the beginning", .applied)
    case .filter:
      ui.view = .board
      ui.filterEditing = true
    case .graph: toggle(.graph)
    case .log: toggle(.log)
    case .timeline: toggle(.timeline)
    case .warnings: toggle(.warnings)
    case .eventBack: travel(events: -1)
    case .eventForward: travel(events: 1)
    case .secondBack: travel(seconds: -1)
    case .secondForward: travel(seconds: 1)
    case .resumePoint: toggleResumePoint()
    case .notes:
      if notes.isEmpty && ui.view != .notes {
        ui.status = StatusMessage("this scenario has no notes", .rejected)
      } else {
        toggle(.notes)
      }
    case .redraw:
      break  // The terminal repaints everything on Ctrl-L; nothing changes here.
    case .clickSelect:
      if case .mouseClick(let x, let y) = input { click(x: x, y: y) }
    case .wheelScroll:
      move(input == .scrollUp ? -3 : 3)
    }
    return true
  }

  private var pageSize: Int { max(1, layout.operationRows.height - 1) }

  private func open(_ view: BoardView) {
    ui.returnView = view == .detail && ui.view == .graph ? .graph : .board
    ui.view = view
    ui.detailScroll = 0
  }

  private func toggle(_ view: BoardView) {
    if ui.view == view { ui.view = .board } else { open(view) }
    if view == .log { ui.logScroll = 0 }
    if view == .notes { ui.notesScroll = 0 }
    if view == .warnings { ui.warningsScroll = 0 }
  }

  private func back() {
    if ui.view != .board {
      ui.view = ui.view == .detail ? ui.returnView : .board
      ui.returnView = .board
    } else if !ui.operations.query.isEmpty {
      ui.operations.setQuery("")
      ui.status = StatusMessage("filter cleared")
    } else {
      ui.status = StatusMessage("nothing to close: q quits")
    }
  }

  /// Up/down: the operation selection on the board and in the graph, scrolling in the other views.
  private func move(_ delta: Int) {
    switch ui.view {
    case .board, .graph, .timeline: moveSelection(delta)
    case .warnings: ui.warningsScroll = max(0, ui.warningsScroll.addingClamped(delta))
    case .detail: ui.detailScroll = max(0, ui.detailScroll.addingClamped(delta))
    case .log: ui.logScroll = max(0, ui.logScroll.addingClamped(-delta))
    case .notes: ui.notesScroll = max(0, ui.notesScroll.addingClamped(delta))
    }
  }

  private func moveSelection(_ delta: Int) {
    ui.operations.update(model)
    let count = ui.operations.count(model)
    guard count > 0 else {
      ui.status = StatusMessage(
        ui.operations.isFiltered ? "nothing matches the filter: Esc clears it" : "no operations yet"
      )
      return
    }
    let current = ui.operations.position(of: ui.selectedOperation).position
    let target = min(max(0, current.addingClamped(delta)), count - 1)
    ui.selectedOperation = ui.operations.modelIndex(at: target)
  }

  private func cycleQueue(_ delta: Int) {
    guard !model.queues.isEmpty else {
      ui.status = StatusMessage("no queues yet", .rejected)
      return
    }
    let n = model.queues.count
    ui.selectedQueue = ((ui.selectedQueue + delta) % n + n) % n
    ui.status = StatusMessage(
      "queue \(model.queues[ui.selectedQueue].name) selected: s, +, -, C act on it")
  }

  private func click(x: Int, y: Int) {
    guard ui.view == .board, BoardLayout.fits(width: screen.width, height: screen.height) else {
      return
    }
    let l = layout
    if l.operationRows.contains(x: x, y: y) {
      let position = ui.operationsScroll + (y - l.operationRows.y)
      ui.operations.update(model)
      if position < ui.operations.count(model) {
        ui.selectedOperation = ui.operations.modelIndex(at: position)
      }
    } else if let q = l.queueRows, q.contains(x: x, y: y) {
      let index = ui.queuesScroll + (y - q.y)
      if index < model.queues.count { ui.selectedQueue = index }
    }
  }

  private func step() {
    let wasPaused = paused
    setPaused(true)
    if revealOne() != nil, let entry = log.last {
      ui.status = StatusMessage((wasPaused ? "step: " : "paused; step: ") + entry.line)
    } else {
      ui.status = StatusMessage(
        "nothing left to step: the engine has nothing more scheduled", .rejected)
    }
  }

  /// Zoom keeps the time under the view's left edge; each step doubles or halves seconds per column.
  private func zoomTimeline(in zoomIn: Bool) {
    let target = ui.timelineZoom + (zoomIn ? 1 : -1)
    guard BoardUIState.timelineZooms.contains(target) else {
      ui.status = StatusMessage(
        "the timeline is zoomed \(zoomIn ? "in" : "out") as far as it goes", .rejected)
      return
    }
    ui.timelineZoom = target
    ui.status = StatusMessage(
      "timeline zoom: \(TimelineScale(zoom: target).label) per column")
  }

  private func changeSpeed(_ factor: Double) {
    let target = speed * factor
    guard Self.speeds.contains(target) else {
      ui.status = StatusMessage(
        "already at the \(factor > 1 ? "fastest" : "slowest") speed, \(Vocabulary.speed(speed))",
        .rejected)
      return
    }
    setSpeed(target)
    ui.status = StatusMessage(
      "speed \(Vocabulary.speed(speed)): \(Vocabulary.speed(speed)) virtual seconds per second")
  }
}

extension Int {
  func addingClamped(_ other: Int) -> Int {
    let (r, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? Int.max : Int.min) : r
  }
}
