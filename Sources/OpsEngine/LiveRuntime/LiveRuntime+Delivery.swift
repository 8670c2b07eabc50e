import Dispatch
import OpsEvents

// Delivery: events leave the engine's buffer under the lock and reach the lints and the
// subscribers in order on the delivery queue, outside it.

extension LiveRuntime {
  /// Each event of the core (only ever within a step, under the lock), buffered for delivery. The
  /// core appends to the buffer itself (its `sink`), so this is not called; the core counts
  /// unfinished operations and says when one finished (`EngineCore.unfinished`), so nothing here
  /// reads the event.
  func record(_ event: consuming Event) {
    // Always published (folded and linted), so sequence numbers and warnings do not depend on when
    // someone subscribed.
    buffer.append(event)
  }

  /// On `delivery`: the subscribers of the batch about to be published.
  func setPublishingTo(_ subs: [LiveSubscriber]) {
    publishingTo = subs
    publishingToOnly = subs.count == 1 ? Unmanaged.passUnretained(subs[0]) : nil
  }

  /// Delivers buffered events in order on the delivery queue, batch by batch, outside the lock.
  /// Operations retired while the batch's events were buffered are forgotten by the lints after it:
  /// every event about them is in the batch or an earlier one.
  func drain() {
    // The batch is kept between drains (emptied, with its room), so the buffer it is swapped with
    // does not grow again from nothing at every drain: a fresh one each time was reallocated and
    // page-faulted event by event (~9% of all samples with the standard lints).
    let batch = deliveryBatch
    var retired: [RetiredName] = []
    while true {
      lock.lock()
      if buffer.isEmpty {
        drainScheduled = false
        lock.unlock()
        return
      }
      batch.swapContents(with: buffer)
      if !retiredNames.isEmpty { swap(&retired, &retiredNames) }
      // Exchanged, so the engine's list keeps the room this one had: no allocation under the lock.
      if !retiredRecords.isEmpty { swap(&recordsToFree, &retiredRecords) }
      let subs = subscribers
      lock.unlock()
      setPublishingTo(subs)
      publisher.delivers = !subs.isEmpty
      // Each event moved out to the publisher: publishing a borrowed one copied it.
      batch.drain { event, hint in
        publishingRawSeq = event.seq
        publisher.publish(event, rowHint: hint, rescheduling: false)
      }
      if !retired.isEmpty {
        publisher.retire(operations: retired)
        retired.removeAll(keepingCapacity: true)
      }
      // Freed here rather than on a queue of their own: a batch handed to a global queue every 64
      // retirements woke a thread for it (one more thread wanting the cores).
      recordsToFree.removeAll(keepingCapacity: true)
      publisher.rescheduleWake()
    }
  }

  /// Events published by the engine and not yet taken for delivery (tests: the backlog's bound).
  var undeliveredEvents: Int {
    lock.lock()
    defer { lock.unlock() }
    return buffer.count
  }

  /// The lints' projection (tests: what it still holds). On the delivery queue.
  var lintProjection: Projection { delivery.sync { publisher.projection } }

  // MARK: - Events

  /// Receives every event published from now on, in order, on a private serial queue.
  public func subscribe(_ handler: @escaping @Sendable (Event) -> Void) {
    withCore { core in subscribers.append(LiveSubscriber(from: core.seq + 1, handler: handler)) }
  }

  /// The number of events published so far, warnings included (waits for delivery to catch up).
  public var eventCount: Int {
    if DispatchQueue.getSpecific(key: onDelivery) != nil { return publisher.seq }
    flushDeliveries()
    return delivery.sync { publisher.seq }
  }

  /// Undelivered events above which the thread that ran a step waits for delivery to catch up, once
  /// the lock is released. Without it a program adding faster than subscribers consume buffers every
  /// event of the run (1M operations: 9M events), and so did workers running operations already
  /// added while the lints' delivery lagged (100k operations: ~45 MB of events at once); with it the
  /// buffer stays under a few MB. The delivery thread itself never waits (a subscriber that calls
  /// the runtime, or finishes async work, goes on at once), so no thread waits for itself.
  static let backlogLimit = 1 << 14
  /// The buffer's size once it has grown: the bound, and room for the events other threads buffer
  /// before the one that found it full has drained it.
  static let backlogRoom = backlogLimit + backlogLimit / 4
}

/// A subscriber of a live runtime: its handler receives events from the `from`th on (by the core's
/// numbering). A class, so the handler is stored as it is called (in a list of tuples it was stored
/// generically, and each call went through a thunk).
final class LiveSubscriber: Sendable {
  let from: Int
  let handler: @Sendable (Event) -> Void

  init(from: Int, handler: @escaping @Sendable (Event) -> Void) {
    self.from = from
    self.handler = handler
  }
}

extension LiveRuntime: EventReceiver {
  /// On `delivery`: one published event, to the subscribers of the batch that asked for it.
  func receive(_ event: borrowing Event) {
    if let only = publishingToOnly {
      only._withUnsafeGuaranteedRef { s in
        if publishingRawSeq >= s.from { s.handler(event) }
      }
    } else {
      for s in publishingTo where publishingRawSeq >= s.from { s.handler(event) }
    }
  }
}
