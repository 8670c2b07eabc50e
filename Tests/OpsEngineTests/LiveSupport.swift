import Foundation
import OpsEngine
import OpsEvents

/// A value shared between a test and the runtime's threads, read and changed under a lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) { stored = value }

  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&stored)
  }

  var value: Value { withLock { $0 } }
}

/// Collects the live runtime's events as its subscriber sees them.
final class EventLog: Sendable {
  private let stored = Locked<[Event]>([])

  init(_ rt: LiveRuntime) {
    rt.subscribe { [stored] event in stored.withLock { $0.append(event) } }
  }

  var events: [Event] { stored.value }

  var startOrder: [String] {
    events.compactMap { if case .didStart(let o) = $0.kind { o } else { nil } }
  }
  var finishOrder: [String] {
    events.compactMap { if case .didFinish(let o, _, _) = $0.kind { o } else { nil } }
  }
}

/// A thread-safe counter of concurrently running closures that remembers its peak.
final class ConcurrencyGauge: @unchecked Sendable {
  private let lock = NSLock()
  private var current = 0
  private var peakValue = 0
  private var ran: [String: Int] = [:]

  func enter(_ name: String = "") {
    lock.lock()
    current += 1
    peakValue = max(peakValue, current)
    ran[name, default: 0] += 1
    lock.unlock()
  }

  func leave() {
    lock.lock()
    current -= 1
    lock.unlock()
  }

  var peak: Int {
    lock.lock()
    defer { lock.unlock() }
    return peakValue
  }

  /// How many times each closure ran.
  var runs: [String: Int] {
    lock.lock()
    defer { lock.unlock() }
    return ran
  }
}

/// Work that takes a little while and stops early when cancelled (it stands for real work, nothing
/// waits on it for timing).
func busyWork(_ gauge: ConcurrencyGauge? = nil, name: String = "", steps: Int = 20) -> LiveWork {
  .sync { ctx in
    gauge?.enter(name)
    defer { gauge?.leave() }
    for _ in 0..<steps {
      if ctx.isCancelled { return }
      usleep(200)
    }
  }
}

/// Generous hang guard for live waits; never a timing assertion.
let liveTimeout = 30.0

func live(_ name: String, priority: QueuePriority? = nil, deps: [String] = []) -> OperationSpec {
  OperationSpec(name: name, priority: priority, dependencies: deps)
}
