import OpsEvents

/// A list of operation ids whose first two are kept inline: an operation's dependencies and
/// dependents, and the dependencies `LiveRuntime.addOperation` looks up before it creates anything.
/// Most operations have none, one or two, and an array for them was an allocation under the engine
/// lock (and a deallocation when the record was freed) for every operation with a dependency.
struct IDList: RandomAccessCollection, Equatable, Sendable, CustomStringConvertible {
  private var first = -1
  private var second = -1
  private var more: [Int] = []
  private(set) var count = 0

  init() {}

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  mutating func append(_ id: Int) {
    switch count {
    case 0: first = id
    case 1: second = id
    default: more.append(id)
    }
    count += 1
  }

  /// Room for `n` in all: only what goes beyond the two inline is reserved.
  mutating func reserveCapacity(_ n: Int) {
    if n > 2 { more.reserveCapacity(n - 2) }
  }

  subscript(i: Int) -> Int {
    precondition(i >= 0 && i < count, "index \(i) out of range 0..<\(count)")
    return i == 0 ? first : i == 1 ? second : more[i - 2]
  }

  static func == (a: IDList, b: IDList) -> Bool { a.elementsEqual(b) }

  var description: String { Array(self).description }
}
