import OpsEvents

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutex with a condition variable for the live runtime. On Linux the mutex is adaptive: it spins
/// briefly before sleeping, which suits the engine's short critical sections (parking a thread costs more
/// than a whole engine step).
final class EngineLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  init() {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    #if canImport(Glibc)
      pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    #endif
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Takes the lock. A thread that finds it held tries again a few times, giving its core away
  /// between tries, before it sleeps in the kernel. The engine's critical sections are a few
  /// microseconds, so the lock is usually free again after a yield or two; sleeping instead cost a
  /// futex wait and a wake-up per contended step (most of the runtime's context switches), and
  /// yielding rather than spinning in place lets the holder or the delivery thread have the core when
  /// threads outnumber cores. Measured in docs/BENCHMARKS.md ("Session 10").
  func lock() {
    if pthread_mutex_trylock(mutex) == 0 { return }
    for _ in 0..<Self.yieldsBeforeSleeping {
      sched_yield()
      if pthread_mutex_trylock(mutex) == 0 { return }
    }
    pthread_mutex_lock(mutex)
  }

  static let yieldsBeforeSleeping = 50

  func unlock() { pthread_mutex_unlock(mutex) }
  func broadcast() { pthread_cond_broadcast(condition) }

  /// The wall-clock deadline `seconds` from now, for `wait(until:)`.
  static func deadline(after seconds: Double) -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000 + seconds
  }

  /// Waits (the lock held) until woken or until `deadline` (wall-clock seconds since 1970). False on timeout.
  func wait(until deadline: Double) -> Bool {
    let whole = deadline.rounded(.down)
    var limit = timespec(tv_sec: Int(whole), tv_nsec: Int((deadline - whole) * 1_000_000_000))
    return pthread_cond_timedwait(condition, mutex, &limit) == 0
  }
}
