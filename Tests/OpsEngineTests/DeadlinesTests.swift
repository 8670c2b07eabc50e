import OpsEngine
import OpsEvents
import Testing

/// `Deadlines`: the time-based lints' agenda, by name or by the projection's index.
@Suite struct DeadlinesTests {
  @Test func aReplacedOrRemovedDeadlineIsNeverDue() {
    var d = Deadlines<Int>()
    d.remove(7)  // nothing set: nothing to do
    #expect(d.isEmpty && d.earliest() == nil)
    d.set(1, at: 5)
    d.set(2, at: 3)
    d.set(3, at: 4)
    d.set(1, at: 9)  // replaces 5
    d.remove(2)
    #expect(d.earliest() == 4)
    #expect(d.due(at: 6) == [3])
    #expect(d.earliest() == 9 && d.contains(1) && !d.contains(3))
    #expect(d.due(at: 100) == [1])
    #expect(d.isEmpty && d.earliest() == nil)
  }

  @Test func namesKeepTheirOwnDeadlines() {
    var d = DeadlineSet()
    d.set("q", at: 2)
    d.set("r", at: 2)
    #expect(Set(d.due(at: 2)) == ["q", "r"])
  }
}
