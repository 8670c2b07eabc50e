import OpsEvents

extension Array {
  /// Empties the array and keeps its capacity, element by element from the end. For the engine's
  /// per-step lists of one or two elements this is cheaper than `removeAll(keepingCapacity: true)`,
  /// which goes through `replaceSubrange`, several times in every step under the live runtime's
  /// lock.
  mutating func clearKeepingCapacity() {
    while popLast() != nil {}
  }
}
