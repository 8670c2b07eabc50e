import Testing

@testable import OpsEngine
@testable import OpsEvents

/// `MemberList`: a queue's members, removed in any order, each record knowing its place.
@Suite struct MemberListTests {
  @Test func removingInAnyOrderKeepsEveryPositionRight() {
    let ops = records(50)
    var members = MemberList()
    for op in ops { members.insert(op) }
    var expected = Set(0..<50)
    // A fixed scrambled order (37 and 50 share no factor: every id once), so a failure repeats.
    for id in (0..<50).map({ $0 * 37 % 50 }) {
      members.remove(ops[id], in: ops)
      expected.remove(id)
      #expect(Set(members.ids) == expected)
      for (p, m) in members.ids.enumerated() { #expect(ops[m].memberPosition == p) }
      #expect(ops[id].memberPosition == -1)
    }
    #expect(members.isEmpty)
  }

  @Test func removingAnOperationThatIsNoMemberChangesNothing() {
    let ops = records(3)
    var members = MemberList()
    members.insert(ops[0])
    members.insert(ops[1])
    // A barrier added to an empty queue is never a member, and finishing removes it all the same.
    members.remove(ops[2], in: ops)
    #expect(members.ids == [0, 1])
    members.remove(ops[0], in: ops)
    members.remove(ops[0], in: ops)
    #expect(members.ids == [1] && ops[1].memberPosition == 0)
  }

  /// Records by id, kept as the engine keeps them.
  private func records(_ n: Int) -> ChunkedArray<OperationRecord> {
    var ops = ChunkedArray<OperationRecord>()
    for i in 0..<n { ops.append(OperationRecord(id: i, spec: OperationSpec(name: "o\(i)"))) }
    return ops
  }
}
