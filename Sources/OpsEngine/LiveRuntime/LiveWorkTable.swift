import OpsEvents

/// The live runtime's own state of each operation, by id: its work until it starts, its context while
/// the work runs. Entries of the oldest ids are dropped once each of them is spent (the work started
/// and returned, or the operation was retired without running), so this follows the operations in
/// flight rather than every operation ever added: with two arrays indexed by id it grew by ~24 bytes
/// an operation forever (a million no-op operations at limit 4 peaked at 78-86 MB, 49-50 MB now).
struct LiveWorkTable {
  enum Entry {
    /// Declared, not started: the work to run.
    case waiting(LiveWork)
    /// Started: its work's context (until the work returns).
    case running(WorkContext)
    /// Nothing left to keep.
    case spent
  }

  private var entries: [Entry] = []
  /// The id of `entries[0]`: every id below it is spent.
  private var base = 0
  /// Entries from the start known to be spent (the trim's cursor).
  private var spentPrefix = 0

  /// Entries held (tests: how many the trim left).
  var kept: Int { entries.count }

  /// The id the next operation gets.
  var nextID: Int { base + entries.count }

  mutating func append(_ work: LiveWork) { entries.append(.waiting(work)) }

  /// The work of `id`, which starts now (nil if it was retired or already started).
  mutating func start(_ id: Int, context: WorkContext) -> LiveWork? {
    precondition(id >= base, "operation \(id) started after its entry was dropped")
    guard case .waiting(let work) = entries[id - base] else { return nil }
    entries[id - base] = .running(context)
    return work
  }

  /// A group without work of its own starts: its children are the work, so nothing is kept for it.
  /// False (nothing changed) for any other operation.
  mutating func startGroupWithoutWork(_ id: Int) -> Bool {
    guard id >= base, case .waiting(.none) = entries[id - base] else { return false }
    spend(id)
    return true
  }

  /// The context of `id` while its work runs.
  func context(of id: Int) -> WorkContext? {
    guard id >= base, case .running(let context) = entries[id - base] else { return nil }
    return context
  }

  /// The work of `id` returned: its context, which is let go.
  mutating func returned(_ id: Int) -> WorkContext? {
    guard id >= base, case .running(let context) = entries[id - base] else { return nil }
    spend(id)
    return context
  }

  /// `id` was retired: a work that never started is let go (one still running keeps its context
  /// until it returns, as immediate cancellation lets it run on).
  mutating func retired(_ id: Int) {
    guard id >= base, case .waiting = entries[id - base] else { return }
    spend(id)
  }

  /// Nothing of `id` is kept any more; the start of the array is dropped if it is now spent enough.
  private mutating func spend(_ id: Int) {
    entries[id - base] = .spent
    trim()
  }

  /// Drops the spent entries at the start once they are most of the array (amortised O(1) an entry: the
  /// cursor only moves forward, and an entry still in use stops it).
  private mutating func trim() {
    while spentPrefix < entries.count, case .spent = entries[spentPrefix] { spentPrefix += 1 }
    if spentPrefix >= 4096 && spentPrefix * 2 >= entries.count {
      entries.removeFirst(spentPrefix)
      base += spentPrefix
      spentPrefix = 0
    }
  }
}
