import OpsEngine
import Testing

@Test func singleOperationWalksTheLifecycle() throws {
  let rt = try makeRuntime(operations: [(op("a", work: 2), "q")])
  rt.run()
  #expect(rt.states(of: "a") == [.pending, .ready, .executing, .finishing, .finished])
  #expect(rt.time { if case .didFinish("a", _, _) = $0 { true } else { false } } == 2)
}
