import Foundation
import OpsEngine
import OpsEvents
import Testing

@Suite struct LifecycleTests {
  @Test func plainOperationWalksEveryStateOnce() throws {
    let rt = try makeRuntime(operations: [(op("a", work: 2), "q")])
    rt.run()
    #expect(rt.states(of: "a") == [.pending, .ready, .executing, .finishing, .finished])
    #expect(rt.time { if case .didFinish("a", _, _) = $0 { true } else { false } } == 2)
    #expect(rt.flags(of: "a") == OperationFlags(state: .finished, cancelled: false))
  }

  @Test func observersFireInOrderAroundTheStates() throws {
    let rt = try makeRuntime(operations: [(op("a"), "q")])
    rt.run()
    let types = rt.events.filter { $0.kind.operation == "a" }.map(\.kind.type)
    #expect(
      types == [
        "operationAdded", "state", "state", "state", "didStart", "state", "willFinish", "state",
        "didFinish",
      ])
  }

  @Test func sequenceNumbersStartAtOneWithoutGaps() throws {
    let rt = try makeRuntime(operations: [(op("a"), "q"), (op("b", deps: ["a"]), "q")])
    rt.run()
    #expect(rt.events.map(\.seq) == Array(1...rt.events.count))
    #expect(zip(rt.events, rt.events.dropFirst()).allSatisfy { $0.time <= $1.time })
  }

  @Test func flagsFollowTheLifecycle() {
    #expect(OperationFlags(state: .pending, cancelled: false).isReady == false)
    #expect(OperationFlags(state: .ready, cancelled: false).isReady)
    #expect(OperationFlags(state: .executing, cancelled: false).isExecuting)
    #expect(OperationFlags(state: .finishing, cancelled: false).isExecuting == false)
    #expect(OperationFlags(state: .finished, cancelled: true).isFinished)
    #expect(OperationFlags(state: .finished, cancelled: true).isCancelled)
  }

  @Test func failingWorkFinishesWithItsError() throws {
    let spec = OperationSpec(name: "a", work: WorkScript(duration: 1, fails: "disk full"))
    let rt = try makeRuntime(operations: [(spec, "q")])
    rt.run()
    #expect(rt.errors(of: "a") == ["disk full"])
    #expect(
      rt.events.last?.kind == .didFinish(operation: "a", errors: ["disk full"], cancelled: false))
  }

  @Test func asyncOperationThatNeverFinishesStaysExecuting() throws {
    let spec = OperationSpec(name: "a", work: WorkScript(finishes: false))
    let rt = try makeRuntime(operations: [(spec, "q")])
    rt.run()
    #expect(rt.state(of: "a") == .executing)
    #expect(rt.isIdle)
  }

  @Test func blockOperationFinishesWhenItsLongestBlockDoes() throws {
    let spec = OperationSpec(name: "a", work: WorkScript(blocks: [1.0, 0.5, 2.5]))
    let rt = try makeRuntime(operations: [(spec, "q")])
    rt.run()
    #expect(rt.time { if case .didFinish("a", _, _) = $0 { true } else { false } } == 2.5)
    #expect(
      rt.events.contains {
        $0.kind
          == .operationAdded(
            operation: "a", queue: "q", priority: .normal, qos: .default, kind: .block,
            dependencies: [], conditions: [], exclusivity: [], work: 2.5)
      })
  }

  @Test func completionBlockRunsAfterFinishAndAfterDependentsStart() throws {
    var a = op("a")
    a.completion = true
    let rt = try makeRuntime(operations: [(a, "q"), (op("b", deps: ["a"]), "q")])
    rt.run()
    let types = rt.events.map { "\($0.kind.type):\($0.kind.operation ?? "")" }
    let finished = try #require(types.firstIndex(of: "didFinish:a"))
    let bStarted = try #require(types.firstIndex(of: "didStart:b"))
    let completion = try #require(types.firstIndex(of: "completion:a"))
    #expect(finished < bStarted && bStarted < completion)
  }

  @Test func producedOperationJoinsTheProducersQueue() throws {
    let parent = OperationSpec(
      name: "parent", work: WorkScript(duration: 2, produces: [.init(at: 0.5, operation: "thumb")]))
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([parent, op("thumb")])
    try rt.enqueue("parent", on: "q")
    rt.run()
    #expect(
      rt.events.contains {
        $0.kind == .didProduce(operation: "parent", produced: "thumb") && $0.time == 0.5
      })
    #expect(rt.time { if case .didStart("thumb") = $0 { true } else { false } } == 0.5)
    #expect(rt.state(of: "thumb") == .finished)
  }

  @Test func sameInputGivesAByteIdenticalStream() throws {
    func trace() throws -> [String] {
      let rt = try makeRuntime(
        queues: [QueueSpec(name: "a", maxConcurrent: 2), QueueSpec(name: "b", maxConcurrent: 1)],
        operations: (0..<40).map { i in
          (
            op(
              "op\(i)", work: Double(i % 7) * 0.25 + 0.1, priority: QueuePriority.allCases[i % 5],
              deps: i > 3 ? ["op\(i / 2)"] : []), i % 3 == 0 ? "b" : "a"
          )
        })
      rt.schedule(.cancel(operation: "op9"), at: 0.3)
      rt.schedule(.suspend(queue: "a"), at: 0.5)
      rt.schedule(.resume(queue: "a"), at: 1.5)
      rt.run()
      return rt.events.map(\.jsonLine)
    }
    #expect(try trace() == trace())
  }

  @Test func eventsRoundTripThroughCodable() throws {
    let rt = try makeRuntime(operations: [(op("a"), "q")])
    rt.perform(.setMaxConcurrent(queue: "q", value: 3), source: .key)
    rt.run()
    let data = try JSONEncoder().encode(rt.events)
    #expect(try JSONDecoder().decode([Event].self, from: data) == rt.events)
  }

  @Test func jsonLineHasTheContractKeysInOrder() {
    let e = Event(
      seq: 3, time: 1.25,
      kind: .state(operation: "a", from: .pending, to: .ready, cause: .noDependencies))
    #expect(
      e.jsonLine
        == #"{"seq":3,"time":1.25,"type":"state","operation":"a","from":"pending","to":"ready","cause":{"kind":"noDependencies"}}"#
    )
    let q = Event(
      seq: 1, time: 0,
      kind: .queueAdded(queue: "n", maxConcurrent: nil, suspended: false, qos: .utility))
    #expect(
      q.jsonLine
        == #"{"seq":1,"time":0,"type":"queueAdded","queue":"n","maxConcurrent":null,"suspended":false,"qos":"utility"}"#
    )
  }
}
