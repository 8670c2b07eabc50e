import Dispatch
import OpsEngine
import OpsEvents

/// The trace's output, formatted and written on a second thread while the engine runs: turning
/// events into text was a fifth of a 50,000-operation trace, and it does not need to hold the engine
/// up. Events and lines go over in batches, in order; at most a few batches wait, so a slow reader
/// (a pipe into `less`) holds the engine back instead of filling memory.
final class TraceWriter: @unchecked Sendable {
  /// What the writer thread turns into bytes.
  enum Item: Sendable {
    case event(Event)
    /// A line written as it is (the caller has made it terminal-safe).
    case line(String)
  }

  private static let batchSize = 4_096
  private let format: @Sendable (Event, BufferedOutput) -> Void
  // Touched only on `queue` after creation.
  private let output = BufferedOutput()
  private let queue = DispatchQueue(label: "opsview.trace-writer")
  private let slots = DispatchSemaphore(value: 4)
  // Touched only by the thread that runs the engine (no dynamic exclusivity checks needed).
  @exclusivity(unchecked) private var batch: [Item] = []

  /// `format`: writes one event's line (on the writer thread).
  init(format: @escaping @Sendable (Event, BufferedOutput) -> Void) {
    self.format = format
    batch.reserveCapacity(Self.batchSize)
  }

  func event(_ event: Event) {
    batch.append(.event(event))
    if batch.count >= Self.batchSize { send() }
  }

  func line(_ line: String) {
    batch.append(.line(line))
    if batch.count >= Self.batchSize { send() }
  }

  /// Writes what is left and waits until it is out.
  func finish() {
    send()
    queue.sync { output.flush() }
  }

  private func send() {
    guard !batch.isEmpty else { return }
    let items = batch
    batch = []
    batch.reserveCapacity(Self.batchSize)
    slots.wait()
    queue.async { [self] in
      for item in items {
        switch item {
        case .event(let e): format(e, output)
        case .line(let l): output.write(l)
        }
      }
      slots.signal()
    }
  }
}
