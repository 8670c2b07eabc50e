/// The live runtime's own state of each operation, by id: its work until it starts, its context while
/// the work runs. Slots of the oldest ids are dropped once each of them is spent (the work started
/// and returned, or the operation was retired without running), so this follows the operations in
/// flight rather than every operation ever added (arrays indexed by id would grow by a few words
/// an operation for the whole run).
struct LiveSlots {
  enum Slot {
    /// Declared, not started: the work to run.
    case waiting(LiveWork)
    /// Started: its work's context (until the work returns).
    case running(WorkContext)
    /// Nothing left to keep.
    case spent
  }

  private var slots: [Slot] = []
  /// The id of `slots[0]`: every id below it is spent.
  private var base = 0
  /// Slots from the start known to be spent (the trim's cursor).
  private var spentPrefix = 0

  /// Slots held (tests: how many the trim left).
  var kept: Int { slots.count }

  /// The id the next operation gets.
  var nextID: Int { base + slots.count }

  mutating func append(_ work: LiveWork) { slots.append(.waiting(work)) }

  /// The work of `id`, which starts now (nil if it was retired or already started).
  mutating func start(_ id: Int, context: WorkContext) -> LiveWork? {
    precondition(id >= base, "operation \(id) started after its slot was dropped")
    guard case .waiting(let work) = slots[id - base] else { return nil }
    slots[id - base] = .running(context)
    return work
  }

  /// A group without work of its own starts: its children are the work, so nothing is kept for it.
  /// False (nothing changed) for any other operation.
  mutating func startGroupWithoutWork(_ id: Int) -> Bool {
    guard id >= base, case .waiting(.none) = slots[id - base] else { return false }
    spend(id)
    return true
  }

  /// The context of `id` while its work runs.
  func context(of id: Int) -> WorkContext? {
    guard id >= base, case .running(let context) = slots[id - base] else { return nil }
    return context
  }

  /// The work of `id` returned: its context, which is let go.
  mutating func returned(_ id: Int) -> WorkContext? {
    guard id >= base, case .running(let context) = slots[id - base] else { return nil }
    spend(id)
    return context
  }

  /// `id` was retired: a work that never started is let go (one still running keeps its context
  /// until it returns, as immediate cancellation lets it run on).
  mutating func retired(_ id: Int) {
    guard id >= base, case .waiting = slots[id - base] else { return }
    spend(id)
  }

  /// Nothing of `id` is kept any more; the start of the array is dropped if it is now spent enough.
  private mutating func spend(_ id: Int) {
    slots[id - base] = .spent
    trim()
  }

  /// Drops the spent slots at the start once they are most of the array (amortised O(1) a slot: the
  /// cursor only moves forward, and a slot still in use stops it).
  private mutating func trim() {
    while spentPrefix < slots.count, case .spent = slots[spentPrefix] { spentPrefix += 1 }
    if spentPrefix >= 4096 && spentPrefix * 2 >= slots.count {
      slots.removeFirst(spentPrefix)
      base += spentPrefix
      spentPrefix = 0
    }
  }
}
