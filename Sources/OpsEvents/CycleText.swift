/// A dependency cycle in words, `a → b → c → a`; a long one keeps its first four members and its
/// last, so the text stays one line whatever the cycle's size.
public func cycleText(_ cycle: [String]) -> String {
  guard cycle.count > 8 else { return (cycle + [cycle.first ?? ""]).joined(separator: " → ") }
  let head = cycle.prefix(4).joined(separator: " → ")
  return head + " → … (\(cycle.count - 5) more) → \(cycle[cycle.count - 1]) → \(cycle[0])"
}
