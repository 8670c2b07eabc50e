import OpsEvents

extension Array {
  /// Empties the array and keeps its room, element by element from the end. For the engine's
  /// per-step lists of one or two elements this is a few instructions an element, where
  /// `removeAll(keepingCapacity: true)` goes through `replaceSubrange` (~100–190 instructions a call,
  /// several calls in every step under the live runtime's lock).
  mutating func clearKeepingCapacity() {
    while popLast() != nil {}
  }
}
