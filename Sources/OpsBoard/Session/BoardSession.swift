import Dispatch
import OpsEngine
import OpsEvents

/// The board's controller: runs over an event source, folds its events into a `BoardModel`, plays the
/// source's clock in real time, maps keys to commands and views, and renders frames for the terminal.
public final class BoardSession: InteractiveBoard {
  public private(set) var title: String
  public private(set) var notes: String
  public let keyMap: KeyMap
  /// Virtual seconds per real second.
  public private(set) var speed: Double
  public private(set) var paused: Bool
  /// What the board shows: every event revealed so far, folded; while showing the past, the moment shown.
  public var model: BoardModel { past?.model ?? liveModel }
  /// Every event revealed so far, folded (the present, whatever time travel shows).
  public internal(set) var liveModel = BoardModel()
  /// Set while paused and looking at an earlier moment (time travel).
  public internal(set) var past: PastMoment?
  /// Whether Space, while showing the past, resumes from the moment shown or from the present.
  public internal(set) var resumeFrom: ResumePoint = .present
  /// Key commands sent so far, so "resume from here" can re-apply those before that moment.
  var keyCommands: [RecordedCommand] = []
  /// Scenario settings of each operation's work, for the detail view.
  public private(set) var workSettings: [String: String]
  /// Every log entry revealed so far (the model keeps only the newest).
  public private(set) var log: [LogEntry] = []
  /// What the board runs over (rebuilt by a restart or by time travel's "resume from here").
  public private(set) var source: any EventSource
  /// Told of every event added to the present and of every restart (`opsview play --record`).
  private var presentObserver: ((PresentChange) -> Void)?
  /// Checkpoints of the model, for rebuilding any earlier moment.
  private(set) var history = BoardHistory()
  /// The scenario's teaching moments: which were reached and shown (see BoardSession+Moments).
  var moments = MomentTracker()
  /// Quiz mode: on or off, and the score (see BoardSession+Quiz).
  var quiz = QuizScore()
  /// `play --watch`: the file looked at every so often (see BoardSession+Watch).
  var watcher: FileWatch?
  /// The colours of every frame (`play --theme high-contrast`).
  public var theme = BoardTheme.standard

  /// Below this size `render` draws only a message saying how large the board needs to be.
  public static let minimumSize = (
    width: BoardLayout.minimumWidth, height: BoardLayout.minimumHeight
  )
  /// The speeds `<` and `>` step through (virtual seconds per real second).
  static let speeds: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
  /// At most this many frames a second while playing.
  static let frameInterval = 1.0 / 30
  /// Events folded per frame while playing at most: a few milliseconds of engine steps and folding
  /// at 50k operations. A frame that takes a time-travel checkpoint also pays for copying the
  /// model's operation records, so the rest is kept small (`opsview-bench analysis`, "play max").
  static let eventsPerFrame = 2048
  /// Capacity kept for the events not shown yet once they are all shown.
  static let keptIncomingCapacity = 4096

  private(set) var makeSource: () -> any EventSource
  /// Reads the scenario again (its file may have changed) for a restart; nil for a fixed one.
  private let reload: (() throws -> BoardScenario)?
  /// Events the engine published that the board has not shown yet (stepping reveals one at a time).
  private var incoming: [Event] = []
  private var incomingHead = 0
  /// The most events one frame of playing folds (tests make it small).
  var foldBudget = BoardSession.eventsPerFrame
  /// Playing adapts `foldBudget` to the machine (`opsview play`): a frame whose budget ran out with
  /// time to spare folds half as many again next time, one that took too long 3/5 as many (never
  /// fewer than `eventsPerFrame`), so a fast speed on a large scenario plays at what the machine can do
  /// while each frame stays short.
  public var adaptsFoldBudget = false
  /// Milliseconds of folding a frame aims at when `adaptsFoldBudget` (a checkpoint and the render
  /// come on top, and a frame should stay under 50 ms).
  static let foldMillisecondsTarget = 20.0
  /// The virtual time playing has reached, when a frame's budget ran out before the source's clock
  /// got there (nil when paused or caught up with the source).
  var playTarget: Double?
  /// Bumped by a restart, so events from a replaced source are ignored.
  private var generation = 0
  var ui = BoardUIState()
  private(set) var screen: (width: Int, height: Int) = (80, 24)
  /// What the last frame cost (tests check it follows what is visible).
  private(set) var lastStats = RenderStats()

  /// A board over the virtual runtimes `makeRuntime` builds.
  public convenience init(
    title: String, notes: String, speed: Double = 1, paused: Bool = false,
    keyMap: KeyMap = .standard, workSettings: [String: String] = [:],
    makeRuntime: @escaping () -> VirtualRuntime,
    reload: (() throws -> BoardScenario)? = nil, moments: [Moment] = []
  ) {
    self.init(
      title: title, notes: notes, speed: speed, paused: paused, keyMap: keyMap,
      workSettings: workSettings, makeSource: { VirtualScenarioSource(makeRuntime()) },
      reload: reload, moments: moments)
  }

  /// A board over the sources `makeSource` builds (again on a restart).
  public init(
    title: String, notes: String, speed: Double = 1, paused: Bool = false,
    keyMap: KeyMap = .standard, workSettings: [String: String] = [:],
    makeSource: @escaping () -> any EventSource,
    reload: (() throws -> BoardScenario)? = nil, moments: [Moment] = []
  ) {
    self.moments = MomentTracker(moments)
    self.workSettings = workSettings
    self.title = title
    self.notes = notes
    self.speed = min(max(speed, Self.speeds.first!), Self.speeds.last!)
    self.paused = paused
    self.keyMap = keyMap
    self.makeSource = makeSource
    self.reload = reload
    source = makeSource()
    attach()
  }

  var hasReload: Bool { reload != nil }

  /// A board for a scenario that `reload` reads again on every restart.
  public convenience init(
    _ scenario: BoardScenario, speed: Double = 1, paused: Bool = false, keyMap: KeyMap = .standard,
    reload: (() throws -> BoardScenario)? = nil
  ) {
    self.init(
      title: scenario.title, notes: scenario.notes, speed: speed, paused: paused, keyMap: keyMap,
      workSettings: scenario.workSettings,
      makeSource: { VirtualScenarioSource(make: scenario.makeRuntime) }, reload: reload,
      moments: scenario.moments)
  }

  /// The virtual scenario's runtime; only a board over a virtual scenario has one (tests read it).
  public var runtime: VirtualRuntime {
    guard let virtual = source as? VirtualScenarioSource else {
      preconditionFailure("this board does not run over a virtual scenario")
    }
    return virtual.runtime
  }

  /// Tells `observer` of every event in the present, those shown already first, and of every restart.
  public func observePresent(_ observer: @escaping (PresentChange) -> Void) {
    for entry in log { observer(.event(entry.event)) }
    presentObserver = observer
  }

  /// Subscribes to the current source and shows what it published so far.
  private func attach() {
    let mine = generation
    source.subscribe { [weak self] event in
      guard let self, self.generation == mine else { return }
      self.incoming.append(event)
    }
    revealAll()
  }

  // MARK: - State for the terminal and tests

  public var status: StatusMessage? { ui.status }
  public var view: BoardView { ui.view }
  public var helpVisible: Bool { ui.helpVisible }
  public var filter: String { ui.shared.operations.query }
  public var isEditingFilter: Bool { ui.input?.purpose == .filter }
  /// Waiting for y/n in the status line.
  public var isConfirming: Bool { ui.confirmation != nil }
  /// The selected operation's name: kept across time travel, even at a moment before it existed.
  public var selectedOperation: String? {
    ui.shared.selected ?? model.operations.first?.name
  }
  public var selectedQueue: String? {
    ui.shared.selectedQueue < model.queues.count ? model.queues[ui.shared.selectedQueue].name : nil
  }
  /// Events published by the engine and not yet shown.
  public var unrevealedCount: Int { incoming.count - incomingHead }
  /// The engine has nothing more scheduled and the board shows all it published.
  public var isOver: Bool { source.isIdle && unrevealedCount == 0 }

  public func select(operation name: String) {
    if model.index(ofOperation: name) != nil { ui.shared.selected = name }
  }
  public func select(queue name: String) {
    if let i = model.index(ofQueue: name) { ui.shared.selectedQueue = i }
  }

  // MARK: - Driving the clock

  /// The last frame was smaller than the board needs (`minimumSize`): nothing of the board is on
  /// screen, so the clock holds (no event is revealed, the time does not move, a watched file waits)
  /// and keys other than quit and redraw wait. Playing goes on as it was once the size is back.
  public var isTooSmall: Bool {
    !BoardLayout.fits(width: screen.width, height: screen.height)
  }

  public func tick(elapsed: Double) {
    guard !isTooSmall else { return }
    pollWatch(elapsed: elapsed)
    guard !paused, elapsed > 0 else { return }
    guard adaptsFoldBudget else {
      play(by: elapsed * speed, folding: foldBudget)
      return
    }
    let start = DispatchTime.now().uptimeNanoseconds
    play(by: elapsed * speed, folding: foldBudget)
    let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    if playTarget != nil && ms < Self.foldMillisecondsTarget * 0.75 {
      foldBudget = min(foldBudget + foldBudget / 2, 1 << 22)
    } else if ms > Self.foldMillisecondsTarget {
      foldBudget = max(Self.eventsPerFrame, foldBudget * 3 / 5)
    }
  }

  /// One frame of playing: the clock moves `seconds` on, but at most `budget` events are folded
  /// (and the source is only asked for more while fewer were): what a fast speed or a burst leaves
  /// is folded on the frames that follow, so no frame waits for a long fold and keys act at once.
  /// Meanwhile the clock shown is the last folded event's, and the time owed is kept for the next
  /// frame. `advance(by:)` is the same without a budget.
  func play(by seconds: Double, folding budget: Int) {
    if !moments.isEmpty {
      advanceThroughMoments(by: seconds, folding: budget)
      return
    }
    let wasOver = isOver
    let target = max(playTarget ?? source.now, source.now) + seconds
    playTarget = target
    var left = budget - reveal(atMost: budget)
    while left > 0, unrevealedCount == 0, !source.isIdle {
      // One happening at a time while it is due; otherwise the clock moves on to the target (a
      // source that cannot tell when its next event is due is simply advanced).
      let stepping = source.nextEventTime.map { $0 <= target } ?? false
      if stepping {
        _ = source.step()
      } else {
        source.advance(by: max(0, target - source.now))
      }
      if followNewStory() { return }
      left -= reveal(atMost: left)
      if !stepping { break }
    }
    guard unrevealedCount == 0 else { return }
    if source.isIdle {
      playTarget = nil
      // The run just ended: a message about playing is stale, the end-of-run line says more.
      if !wasOver, ui.status?.kind == .info { ui.status = nil }
    } else {
      liveModel.advanceClock(to: source.now)
    }
  }

  /// Moves the virtual clock forward by `seconds` and shows everything that happened, paused or not
  /// (tests and benchmarks drive the board with it). Once nothing more will happen the clock stays
  /// at the last event: the runtime's clock ran on to the end of the step, but nothing was there.
  public func advance(by seconds: Double) {
    if !moments.isEmpty {
      advanceThroughMoments(by: seconds)
      return
    }
    revealAll()
    guard !source.isIdle else { return }
    source.advance(by: seconds)
    if followNewStory() { return }
    revealAll()
    if source.isIdle {
      // The run just ended: a message about playing is stale, the end-of-run line says more.
      if ui.status?.kind == .info { ui.status = nil }
    } else {
      liveModel.advanceClock(to: source.now)
    }
  }

  public var nextFrameDelay: Double? {
    // Too small, nothing animates: the terminal blocks on input until a resize or a key.
    if isTooSmall { return nil }
    // A watched file is looked at while paused too.
    if paused || isOver { return watcher?.interval }
    return Self.frameInterval
  }

  /// Folds one event into the model and the log.
  func show(_ event: Event) {
    if ui.awaitingReply != nil { noteReply(event) }
    log.append(liveModel.apply(event))
    history.record(liveModel)
    presentObserver?(.event(event))
  }

  func revealAll() { reveal(atMost: .max) }

  /// Shows at most `limit` of the events published and not shown yet; returns how many it showed.
  @discardableResult
  func reveal(atMost limit: Int) -> Int {
    var shown = 0
    while shown < limit, incomingHead < incoming.count {
      let event = incoming[incomingHead]
      show(event)
      incomingHead += 1
      shown += 1
      // A teaching moment holds the rest back until a key continues.
      if momentReached(by: event) { return shown }
    }
    if incomingHead == incoming.count {
      // Playing asks the source for more only once these are shown, so they are a few (one
      // step's); a large batch (setting up, a live program's backlog) is not kept as capacity.
      incoming.removeAll(keepingCapacity: incoming.count <= Self.keptIncomingCapacity)
      incomingHead = 0
      // The engine step is shown whole: an action moment comes after its command's effect.
      _ = momentReachedAtStepEnd()
    }
    return shown
  }

  /// Shows the next event, asking the engine for its next step when everything is shown.
  /// Returns the event, or nil when nothing more will ever happen.
  func revealOne() -> Event? {
    while incomingHead == incoming.count {
      incoming.removeAll(keepingCapacity: true)
      incomingHead = 0
      guard source.step() else { return nil }
      if followNewStory() { return nil }
      // A live program had nothing new: there is nothing to show yet, and waiting here for its
      // next event would freeze the board (keys included) while it is idle or gone.
      if source.isLive && incomingHead == incoming.count { return nil }
    }
    let event = incoming[incomingHead]
    incomingHead += 1
    show(event)
    liveModel.advanceClock(to: event.time)
    if !momentReached(by: event), incomingHead == incoming.count { _ = momentReachedAtStepEnd() }
    return event
  }

  /// Starts again from the scenario, read again when it comes from a file. Returns why not, if
  /// the file cannot be read (nothing changes then).
  @discardableResult
  func restartFromScenario() -> String? {
    if let reload {
      do {
        let s = try reload()
        title = s.title
        notes = s.notes
        workSettings = s.workSettings
        makeSource = { VirtualScenarioSource(make: s.makeRuntime) }
        moments = MomentTracker(s.moments)
      } catch {
        return "\(error)"
      }
    }
    restart()
    return nil
  }

  func restart() {
    generation += 1
    presentObserver?(.reset)
    source = makeSource()
    liveModel = BoardModel()
    past = nil
    keyCommands = []
    log = []
    history = BoardHistory()
    moments = MomentTracker(moments.moments)
    quiz.askedAtMoment = nil
    incoming = []
    incomingHead = 0
    playTarget = nil
    // What the user chose to look at survives (the selection, the filter, the presenter layout);
    // the clock's story starts again.
    let presenting = isPresenting
    var fresh = BoardUIState()
    fresh.shared.operations = ui.shared.operations
    fresh.shared.selected = ui.shared.selected
    fresh.shared.selectedQueue = ui.shared.selectedQueue
    ui = fresh
    attach()
    if presenting { present() }
  }

  /// A live program restarted: the board starts again over its new story (the previous run's
  /// events are no longer shown; a recorder is told, as for a restart).
  private func followNewStory() -> Bool {
    guard source.takeNewStory() else { return false }
    restart()
    ui.status = StatusMessage("the program started again: showing its new run")
    return true
  }

  func setPaused(_ p: Bool) {
    paused = p
    // Time owed by a frame whose budget ran out is not played after a pause.
    playTarget = nil
    if !p { revealAll() }
  }

  func setSpeed(_ s: Double) { speed = s }

  /// Shows or hides help. The clock waits while it is open, and runs again after if it ran before.
  func setHelp(_ visible: Bool) {
    guard visible != ui.helpVisible else { return }
    ui.helpVisible = visible
    if visible {
      ui.help = HelpOverlay()
      ui.help.resumeOnClose = !paused
      if !paused { setPaused(true) }
    } else if ui.help.resumeOnClose {
      setPaused(false)
    }
  }

  // MARK: - Rendering

  var playback: PlaybackInfo {
    PlaybackInfo(
      title: title, speed: speed, paused: paused, unrevealed: unrevealedCount,
      finished: isOver && past == nil, unfinished: model.unfinishedCount,
      showingPast: past.map { ($0.position, log.count) }, resumeFrom: resumeFrom,
      sourceLabel: source.label, live: source.isLive, missedEvents: source.missedEvents,
      quiz: quiz.enabled ? (quiz.right, quiz.asked) : nil)
  }

  /// What the panes of the next frame are drawn from.
  func renderContext(ascii: Bool) -> RenderContext {
    RenderContext(
      model: model, info: playback, notes: notes,
      fullLog: log[..<(past?.position ?? log.count)], workSettings: workSettings,
      keyMap: keyMap, ascii: ascii, lastKey: ui.lastKey, viewBeneath: ui.viewBeneath)
  }

  public func render(width: Int, height: Int, ascii: Bool) -> CellGrid {
    screen = (width, height)
    var renderer = BoardRenderer(context: renderContext(ascii: ascii), width: width, height: height)
    var grid = renderer.render(&ui)
    theme.apply(to: &grid)
    lastStats = renderer.stats
    return grid
  }

  /// The graph view's layout, if it was drawn (tests check it is kept between frames).
  var graphLayout: DAGLayout? { ui.views.graph.layout }
  /// The graph's layout being built over frames, if any (tests).
  var graphBuilding: DAGLayoutBuilder? { ui.views.graph.building }
}
