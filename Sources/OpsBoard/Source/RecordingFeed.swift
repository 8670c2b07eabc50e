import OpsEngine
import OpsEvents
import Synchronization

/// A recording being read on another thread, for a board that starts before the reading ends: the
/// reader adds events as they are validated and says how far it is; the board's `RecordingSource`
/// takes them on its own thread and shows them as they come.
public final class RecordingFeed: Sendable {
  public struct Progress: Sendable, Equatable {
    public var events = 0
    public var bytes = 0
    public var size: Int?
    public var finished = false
    /// Why the reading stopped, when it failed: the board ends with it.
    public var failure: String?
  }
  private struct State {
    var events: [Event] = []
    var progress = Progress()
  }
  private let state = Mutex(State())

  public init() {}

  public func add(_ events: [Event]) {
    state.withLock {
      $0.events += events
      $0.progress.events = $0.events.count
    }
  }

  public func read(bytes: Int, of size: Int?) {
    state.withLock {
      $0.progress.bytes = bytes
      $0.progress.size = size
    }
  }

  /// The reading ended, or failed (`failure`).
  public func finish(failure: String? = nil) {
    state.withLock {
      $0.progress.finished = true
      $0.progress.failure = failure
    }
  }

  public var progress: Progress { state.withLock { $0.progress } }

  /// The events after the first `count`, and how far the reading is.
  func take(after count: Int) -> ([Event], Progress) {
    state.withLock { s in
      (count < s.events.count ? Array(s.events[count...]) : [], s.progress)
    }
  }
}
