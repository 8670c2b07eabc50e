import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

/// Folds every event a runtime has published (and will publish up to `time`) into a fresh model.
private func fold(_ rt: VirtualRuntime, until time: Double? = nil) -> (BoardModel, [LogEntry]) {
  if let t = time { rt.run(until: t) } else { rt.run() }
  var model = BoardModel()
  var log: [LogEntry] = []
  for e in rt.events {
    log.append(model.apply(e))
  }
  return (model, log)
}

@Suite("BoardModel: a pure fold of engine events")
struct BoardModelTests {
  @Test func queueCountsFollowStates() {
    let (model, _) = fold(photoRuntime(), until: 5)
    let network = model.queue(named: "network")!
    #expect(network.maxConcurrent == 2)
    #expect(network.executing == 1)
    #expect(network.counts[.pending] == 2)
    #expect(network.counts[.finished] == 2)
    #expect(network.cancelled == 1)
    // Foundation's operationCount counts unfinished operations; all five were added.
    #expect(network.operationCount == 3)
    #expect(network.counts.total == 5)
    let images = model.queue(named: "images")!
    #expect(images.maxConcurrent == nil)
    #expect(images.executing == 3)
    #expect(model.queues.map(\.name) == ["network", "images", "ui"])
  }

  @Test func operationsKeepAddOrderStatesAndFlags() {
    let (model, _) = fold(photoRuntime(), until: 5)
    #expect(
      model.operations.prefix(4).map(\.name) == ["download", "prefetch", "fetchAvatar", "decode"])
    let download = model.operation(named: "download")!
    #expect(download.state == .finished)
    #expect(download.flags == OperationFlags(state: .finished, cancelled: false))
    #expect(
      download.history.map(\.state) == [
        .initialized, .pending, .ready, .executing, .finishing, .finished,
      ])
    let prefetch = model.operation(named: "prefetch")!
    #expect(prefetch.cancelled && prefetch.cancelCause == .action)
    #expect(prefetch.flags.isCancelled && prefetch.flags.isFinished)
    let decode = model.operation(named: "decode")!
    #expect(decode.state == .executing && decode.flags.isExecuting && decode.flags.isReady)
    #expect(decode.startedAt == 4)
    #expect(decode.progress(at: 5.5) == 0.5)
    #expect(decode.timeInState(at: 5) == 1)
    #expect(decode.lastTransition?.from == .ready && decode.lastTransition?.to == .executing)
    #expect(decode.lastTransition?.time == 4)
    #expect(model.operation(named: "fetchAvatar")!.priority == .high)
    #expect(model.unfinishedCount == 9)
  }

  @Test func logLinesSayWhatHappenedAndWhy() {
    let (_, log) = fold(photoRuntime())
    let lines = Set(log.map(\.line))
    #expect(lines.contains("4.00  decode  pending → ready: its dependency download finished"))
    #expect(lines.contains("0.00  download  initialized → pending: added to network"))
    #expect(
      lines.contains(
        "4.00  fetchAvatar  ready → executing: network started it in slot 2 of 2: download finished and freed a slot"
      ))
    // Its only condition is exclusivity: it waits for the lock while evaluating (ProcedureKit).
    #expect(
      lines.contains("0.00  rateApp  pending → evaluatingConditions: no dependencies to wait for"))
    #expect(
      lines.contains("3.00  rateApp  evaluatingConditions → ready: got the Alert exclusivity lock"))
    #expect(
      lines.contains(
        "11.00  upload  pending → evaluatingConditions: its dependency resize finished"))
    // Only the condition waits for what it produced (ProcedureKit).
    #expect(
      lines.contains(
        "11.00  upload  condition loggedIn waits for login, which it produced, before it is evaluated"
      ))
    #expect(
      lines.contains(
        "14.00  upload  evaluatingConditions → ready: all its conditions were satisfied"))
    #expect(
      lines.contains("2.00  analytics  executing → finishing: its work threw: quota exceeded"))
    #expect(
      lines.contains(
        "4.50  prefetch  executing → finishing: cancelled: the work noticed at its check at 4.5s and stopped early"
      ))
    #expect(
      lines.contains(
        "6.00  warmCache  executing → finishing: timed out: the work noticed at its check at 6s and stopped"
      ))
    #expect(lines.contains("4.00  prefetch  » scenario action: cancel"))
    // Every event has exactly one entry, in order.
    #expect(log.map(\.seq) == Array(1...log.count))
  }

  @Test func keyCommandsAppearAsCommandsFollowedByTheirEffects() {
    let rt = photoRuntime()
    rt.run(until: 3.1)
    rt.perform(.suspend(queue: "network"), source: .key)
    let (_, log) = fold(rt, until: 3.1)
    let i = log.firstIndex { $0.line == "3.10  network  ⌨ key: suspend" }!
    #expect(
      log[i + 1].line
        == "3.10  network  queue suspended: nothing new starts, running operations continue")
  }

  @Test func dependenciesAndDependentsWithTheirStates() {
    let (model, _) = fold(photoRuntime(), until: 12)
    let upload = model.operation(named: "upload")!
    // login is what upload's condition produced: the condition waits for it, not upload itself.
    #expect(upload.dependencies == ["resize"])
    #expect(upload.conditions[0].dependency == "login")
    #expect(model.operation(named: "login")!.dependents == [])
    #expect(model.operation(named: "decode")!.dependents == ["resize", "thumbnail"])
    #expect(model.dependencyProgress(of: upload) == (1, 1))
    #expect(model.dependencyStates(of: "upload").map(\.state) == [.finished])
    #expect(model.dependentStates(of: "resize").map(\.name) == ["upload", "login"])
  }

  @Test func conditionsAndExclusivity() {
    var (model, _) = fold(photoRuntime(), until: 1)
    #expect(model.operation(named: "rateApp")!.conditions[0].status == .waitingForExclusivity)
    #expect(model.operation(named: "rateApp")!.conditions[0].holder == "banner")
    #expect(model.operation(named: "banner")!.conditions[0].status == .holdsLock)
    #expect(model.operation(named: "banner")!.conditions[0].category == "Alert")
    #expect(model.operation(named: "upload")!.conditions[0].status == .waiting)
    (model, _) = fold(photoRuntime(), until: 13.5)
    #expect(model.operation(named: "upload")!.conditions[0].status == .evaluating)
    #expect(model.operation(named: "banner")!.conditions[0].status == .released)
    (model, _) = fold(photoRuntime())
    #expect(model.operation(named: "upload")!.conditions[0].status == .satisfied)
  }

  @Test func failedConditionCancelsWithItsError() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(
      OperationSpec(
        name: "share",
        conditions: [
          ConditionSpec(name: "online", check: .scripted(result: .failed, error: "offline"))
        ]))
    try rt.enqueue("share", on: "q")
    let (model, log) = fold(rt)
    let share = model.operation(named: "share")!
    #expect(share.conditions[0].status == .failed && share.conditions[0].error == "offline")
    #expect(share.cancelled && share.errors == ["offline"])
    #expect(
      log.map(\.line).contains(
        "0.00  share  evaluatingConditions → ready: condition online failed, so it is cancelled"))
    #expect(
      log.map(\.line).contains(
        "0.00  share  ready → finishing: cancelled before it started: its queue starts it, it skips main() and finishes"
      ))
  }

  @Test func cyclesAreMarkedAndCancellingMakesReadyAtOnce() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([
      OperationSpec(name: "a", dependencies: ["b"]), OperationSpec(name: "b", dependencies: ["a"]),
    ])
    try rt.enqueue("a", on: "q")
    try rt.enqueue("b", on: "q")
    var (model, _) = fold(rt)
    #expect(model.cycles.count == 1)
    #expect(Set(model.cycles[0]) == ["a", "b"])
    #expect(model.operation(named: "a")!.inCycle && model.operation(named: "b")!.inCycle)
    #expect(model.operation(named: "a")!.state == .pending)
    rt.perform(.cancel(operation: "a"), source: .key)
    let log: [LogEntry]
    (model, log) = fold(rt)
    #expect(model.operation(named: "b")!.state == .finished)
    #expect(
      log.map(\.line).contains(
        "0.00  a  pending → ready: cancelled (command), so ready at once: its queue must still start it to finish it"
      ))
    #expect(log.map(\.line).contains("0.00  b  pending → ready: its dependency a finished"))
  }

  @Test func limitChangesAndResumeAreNamedAsCausesOfStarts() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    try rt.addOperations([
      OperationSpec(name: "one"), OperationSpec(name: "two"), OperationSpec(name: "three"),
    ])
    for o in ["one", "two", "three"] { try rt.enqueue(o, on: "q") }
    rt.perform(.setMaxConcurrent(queue: "q", value: 2), source: .key)
    rt.perform(.suspend(queue: "q"), source: .key)
    rt.run(until: 1)
    rt.perform(.resume(queue: "q"), source: .key)
    let (model, log) = fold(rt)
    let lines = log.map(\.line)
    #expect(
      lines.contains(
        "0.00  two  ready → executing: q started it in slot 2 of 2: its limit was raised to 2"))
    #expect(
      lines.contains(
        "1.00  three  ready → executing: q started it in slot 1 of 2: the queue was resumed"))
    #expect(model.queue(named: "q")!.maxConcurrent == 2)
    #expect(model.queue(named: "q")!.counts[.finished] == 3)
  }

  @Test func producedOperationsRememberTheirProducer() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([
      OperationSpec(
        name: "crawl", work: WorkScript(duration: 2, produces: [.init(at: 1, operation: "page")])),
      OperationSpec(name: "page"),
    ])
    try rt.enqueue("crawl", on: "q")
    let (model, _) = fold(rt)
    #expect(model.operation(named: "page")!.producedBy == "crawl")
    #expect(model.operation(named: "crawl")!.producedBy == nil)
  }

  @Test func recentLogKeepsTheNewestInOrder() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 2))
    let specs = (0..<60).map { OperationSpec(name: "op\($0)") }
    try rt.addOperations(specs)
    for s in specs { try rt.enqueue(s.name, on: "q") }
    let (model, log) = fold(rt)
    #expect(log.count > BoardModel.recentLogCapacity)
    #expect(model.recentLog == Array(log.suffix(BoardModel.recentLogCapacity)))
    #expect(model.newestLog(3) == Array(log.suffix(3)))
    #expect(model.newestLog(0).isEmpty)
  }

  @Test func aCopyTakenMidwayIsThatMomentExactlyAndCheckpointsThinOut() throws {
    // A chain of 2,000 operations: ~20,000 events, so several checkpoints.
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 4))
    let specs = (0..<2000).map {
      OperationSpec(
        name: "op\($0)", dependencies: $0 > 0 ? ["op\($0 - 1)"] : [],
        work: WorkScript(duration: 0.1))
    }
    try rt.addOperations(specs)
    for s in specs { try rt.enqueue(s.name, on: "q") }
    rt.run()
    var live = BoardModel()
    var history = BoardHistory()
    var log: [LogEntry] = []
    var snapshots: [Int: BoardModel] = [:]
    for e in rt.events {
      log.append(live.apply(e))
      history.record(live)
      if e.seq % 499 == 0 { snapshots[e.seq] = live }
    }
    let c = history.checkpoints
    #expect(c.count > 2 && c.first!.lastSeq == 0)
    // Each checkpoint comes as many events after the last as its cost allows, within the bounds.
    for (a, b) in zip(c.dropFirst(), c.dropFirst(2)) {
      #expect(b.lastSeq - a.lastSeq == BoardHistory.spacing(after: a))
    }
    let spacing = BoardHistory.spacing(after: live)
    #expect(spacing >= BoardHistory.minimumSpacing && spacing <= BoardHistory.maximumSpacing)
    #expect(spacing > BoardHistory.minimumSpacing, "2,000 operations cost more than the minimum")
    for (seq, snapshot) in snapshots {
      #expect(history.model(afterEvents: seq, log: log) == snapshot)
    }
    var fresh = BoardModel()
    for e in rt.events.prefix(1000) { fresh.apply(e) }
    #expect(history.model(afterEvents: 1000, log: log) == fresh)
  }

  @Test func tenThousandOperationsFoldWithConsistentCounts() throws {
    let rt = VirtualRuntime(recording: false)
    var model = BoardModel()
    rt.subscribe { model.apply($0) }
    try rt.addQueue(QueueSpec(name: "bulk", maxConcurrent: 8))
    let specs = (0..<10_000).map {
      OperationSpec(
        name: "op\($0)", dependencies: $0 >= 2 ? ["op\($0 / 2)"] : [],
        work: WorkScript(duration: 0.01))
    }
    try rt.addOperations(specs)
    for s in specs { try rt.enqueue(s.name, on: "bulk") }
    rt.run()
    #expect(model.operations.count == 10_000)
    #expect(model.queue(named: "bulk")!.counts[.finished] == 10_000)
    #expect(model.unfinishedCount == 0)
    #expect(model.lastSeq == rt.eventCount)
    #expect(model.operation(named: "op1")!.dependents.count == 2)
  }
}
