import Foundation
import Testing

/// What swift-corelibs-foundation's own `BlockOperation` does with several blocks (SCF 696-709), the
/// fact behind docs/SEMANTICS.md F19. opsview deliberately shows Apple's concurrent blocks instead.
@Suite struct FoundationBlockOperationTests {
  // F19: corelibs' `main` calls the blocks one after another, in the order they were added: each
  // begins only after the previous one returned.
  @Test func blockOperationRunsItsBlocksOneAfterAnother() {
    let log = LockedBox<[String]>([])
    let threads = LockedBox<Set<ObjectIdentifier>>([])
    let op = BlockOperation()
    for i in 1...4 {
      op.addExecutionBlock {
        log.withLock { $0.append("begin \(i)") }
        threads.withLock { _ = $0.insert(ObjectIdentifier(Thread.current)) }
        log.withLock { $0.append("end \(i)") }
      }
    }
    let queue = OperationQueue()
    queue.addOperation(op)
    op.waitUntilFinished()
    // One after another on the thread that runs `main`, not spread over the pool.
    #expect(threads.withLock { $0.count } == 1)
    #expect(log.withLock { $0 } == (1...4).flatMap { ["begin \($0)", "end \($0)"] })
  }
}
