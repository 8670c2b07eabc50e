/// A short list of operation ids kept inline: the dependencies `LiveRuntime.addOperation` looks up
/// before it creates anything. Most operations have none, one or two; an array for them was an
/// allocation under the engine lock for every operation with a dependency.
struct SmallIDList {
  private var first = -1
  private var second = -1
  private var more: [Int] = []
  private(set) var count = 0

  mutating func append(_ id: Int) {
    switch count {
    case 0: first = id
    case 1: second = id
    default: more.append(id)
    }
    count += 1
  }

  subscript(i: Int) -> Int {
    precondition(i >= 0 && i < count, "index \(i) out of range 0..<\(count)")
    return i == 0 ? first : i == 1 ? second : more[i - 2]
  }
}
