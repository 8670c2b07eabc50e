/// A name with its hash computed beforehand, where that costs nobody a wait: the live runtime hashes
/// an operation's name before it takes the engine lock (`OperationRecord.nameHash`), and the engine's
/// name index then hashes one integer under the lock instead of the name's bytes (SipHash over a
/// string was ~400 instructions a lookup there).
struct HashedName: Hashable, Sendable {
  let name: String
  let hash: Int

  init(_ name: String) { self.init(name, hash: name.hashValue) }

  /// `hash` must be `name.hashValue`.
  init(_ name: String, hash: Int) {
    assert(hash == name.hashValue, "the hash of '\(name)' is not its own")
    self.name = name
    self.hash = hash
  }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  static func == (a: Self, b: Self) -> Bool { a.hash == b.hash && a.name == b.name }
}
