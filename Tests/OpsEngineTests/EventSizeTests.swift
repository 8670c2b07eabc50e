import Testing

@testable import OpsEngine
@testable import OpsEvents

/// The board keeps every event of a run and about six history visits per operation; their sizes set
/// its memory at 50,000 operations (258 MB with these sizes, 303 MB before the wide cases were boxed).
/// A new wide case or cause should be `indirect`, or this says what it costs.
@Suite struct EventSizeTests {
  @Test func frequentRecordsStaySmall() {
    #expect(MemoryLayout<Event>.stride <= 72)
    #expect(MemoryLayout<StateVisit>.stride <= 40)
    #expect(MemoryLayout<StateCause>.size <= 25)
  }
}
