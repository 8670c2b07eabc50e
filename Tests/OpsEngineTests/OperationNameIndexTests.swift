import PropertyBased
import Testing

@testable import OpsEngine
@testable import OpsEvents

/// The engine's name index: claims, lookups and removals agree with a dictionary, whatever the
/// hashes (colliding ones included) and the order of removals, across growth.
@Suite struct OperationNameIndexTests {
  /// One step of a random history: claim a name for the next id, remove the holder of a name, or
  /// look a name up. Names are few, so claims often collide with a live holder.
  enum Step {
    case claim(name: Int)
    case remove(name: Int)
    case look(name: Int)
  }

  static let step = zip(Gen.int(in: 0...2), Gen.int(in: 0...39)).map { kind, name -> Step in
    switch kind {
    case 0: .claim(name: name)
    case 1: .remove(name: name)
    default: .look(name: name)
    }
  }

  /// Replays `steps` on the index and on a dictionary. `hashOf` maps a name to its hash: with a
  /// few distinct hashes for 40 names, probing runs are long and equal hashes need the name check.
  private func replay(_ steps: [Step], hashOf: (Int) -> Int) {
    var index = OperationNameIndex()
    var model: [Int: Int] = [:]  // name → id
    var nameOfID: [Int: Int] = [:]  // id → name, the owner's records
    var nextID = 0
    for step in steps {
      switch step {
      case .claim(let name):
        let holder = index.claim(hash: hashOf(name), for: nextID) { nameOfID[$0] == name }
        #expect(holder == model[name])
        if holder == nil {
          model[name] = nextID
          nameOfID[nextID] = name
        }
        nextID += 1
      case .remove(let name):
        guard let id = model[name] else { continue }
        index.remove(hash: hashOf(name), id: id)
        model[name] = nil
        nameOfID[id] = nil
      case .look:
        break
      }
      #expect(index.count == model.count)
      // Every live name is found, and only those: a removal that left a gap in a run would lose
      // a name after it.
      for name in 0..<40 {
        let found = index.id(hash: hashOf(name)) { nameOfID[$0] == name }
        #expect(found == model[name], "name \(name)")
      }
    }
  }

  @Test func agreesWithADictionaryWithSpreadHashes() async {
    await propertyCheck(count: 60, input: Self.step.array(of: 0...300)) { steps in
      replay(steps) { $0 &* 0x5851_F42D_4C95_7F2D &+ 7 }
    }
  }

  @Test func agreesWithADictionaryWhenHashesCollide() async {
    await propertyCheck(count: 60, input: Self.step.array(of: 0...300)) { steps in
      replay(steps) { $0 % 3 }
    }
  }

  /// The engine's use: a name freed by retirement is taken again, and one held is refused with
  /// its holder, over enough operations to grow the table many times.
  @Test func aRemovedNameCanBeClaimedAgainAndAHeldOneIsRefused() {
    var index = OperationNameIndex()
    var names: [Int: String] = [:]
    for id in 0..<5_000 {
      let name = "op\(id)"
      #expect(index.claim(hash: name.hashValue, for: id) { names[$0] == name } == nil)
      names[id] = name
    }
    for id in stride(from: 0, to: 5_000, by: 2) {
      index.remove(hash: names[id]!.hashValue, id: id)
      names[id] = nil
    }
    #expect(index.count == 2_500)
    let again = index.claim(hash: "op10".hashValue, for: 5_000) { names[$0] == "op10" }
    #expect(again == nil)
    names[5_000] = "op10"
    let refused = index.claim(hash: "op11".hashValue, for: 5_001) { names[$0] == "op11" }
    #expect(refused == 11)
    #expect(index.id(hash: "op10".hashValue) { names[$0] == "op10" } == 5_000)
    #expect(index.id(hash: "op12".hashValue) { names[$0] == "op12" } == nil)
  }
}
