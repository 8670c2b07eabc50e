import OpsEvents

/// The live runtime's events between the engine step that made them and their delivery: appended
/// under the engine lock, then moved out one by one, in order, on the delivery queue. Unlike an
/// array it can be emptied by moving its events out without destroying anything in their place (an
/// array needed a placeholder event left in each slot and destroyed later, ~70 instructions an event
/// on the delivery thread). Its room is kept when emptied and grows once past a small size, straight
/// to `roomAfterGrowth` (see `LiveRuntime.backlogRoom`). Not thread-safe: its owner's lock guards it.
///
/// Beside each event, a hint: the row of its operation in a projection that has folded every event
/// since the start (`OperationRecord.foldRow`; -1 when there is none). The engine knows the
/// operation, so the fold need not hash its name to find it again; the fold checks the name at that
/// row and looks the name up when it differs. Not part of the event contract.
final class EventBuffer {
  // `@exclusivity(unchecked)`: its owner's lock already serialises every access.
  @exclusivity(unchecked) private var base: UnsafeMutablePointer<Event>
  @exclusivity(unchecked) private var hints: UnsafeMutablePointer<Int32>
  @exclusivity(unchecked) private(set) var capacity: Int
  @exclusivity(unchecked) private(set) var count = 0
  /// The room a buffer past 1,024 events grows to at once.
  let roomAfterGrowth: Int

  init(roomAfterGrowth: Int) {
    precondition(roomAfterGrowth >= 1024, "a buffer's room after growth must be at least 1,024")
    self.roomAfterGrowth = roomAfterGrowth
    capacity = 64
    base = .allocate(capacity: capacity)
    hints = .allocate(capacity: capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
    hints.deallocate()
  }

  var isEmpty: Bool { count == 0 }

  /// `hint`: see the type; beyond `Int32` it is dropped (-1), which costs only a lookup by name.
  func append(_ event: consuming Event, hint: Int = -1) {
    if count == capacity { grow() }
    (base + count).initialize(to: event)
    hints[count] = Int32(truncatingIfNeeded: hint <= Int(Int32.max) ? hint : -1)
    count += 1
  }

  /// Exchanges the events and room of two buffers of the same growth. The live runtime's buffer is a
  /// constant the core appends to directly (reading a variable one retained and released it at every
  /// event, under the engine lock); the delivery thread takes its events by this exchange.
  func swapContents(with other: EventBuffer) {
    precondition(roomAfterGrowth == other.roomAfterGrowth, "buffers of different growth")
    swap(&base, &other.base)
    swap(&hints, &other.hints)
    swap(&capacity, &other.capacity)
    swap(&count, &other.count)
  }

  /// Moves each event out to `body` with its hint, oldest first, leaving the buffer empty with its
  /// room.
  func drain(_ body: (consuming Event, _ hint: Int) -> Void) {
    // Counted down first: whatever `body` does, no event is moved out twice.
    let n = count
    count = 0
    for i in 0..<n { body((base + i).move(), Int(hints[i])) }
  }

  private func grow() {
    // Doubling up to 1,024, then straight to the full room, and doubling again only past that:
    // doubling a large block freed the old one each time, and glibc raises its mmap and trim
    // thresholds to the size of a large block freed, after which the threads' arenas keep more
    // of what they free.
    let room = capacity < 1024 ? capacity * 2 : max(roomAfterGrowth, capacity * 2)
    let grown = UnsafeMutablePointer<Event>.allocate(capacity: room)
    grown.moveInitialize(from: base, count: count)
    base.deallocate()
    base = grown
    let grownHints = UnsafeMutablePointer<Int32>.allocate(capacity: room)
    grownHints.update(from: hints, count: count)
    hints.deallocate()
    hints = grownHints
    capacity = room
  }
}
