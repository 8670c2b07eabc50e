import Testing

@testable import OpsEngine
@testable import OpsEvents

/// The projection's operation records live in a `ChunkedArray`: it must behave as an array does
/// (order, in-place writes, copies independent of each other) across its chunk boundaries.
@Suite struct ChunkedArrayTests {
  @Test(arguments: [0, 1, 255, 256, 257, 1_000, 5_000])
  func holdsWhatWasAppendedInOrder(_ n: Int) {
    var chunked = ChunkedArray<Int>()
    for i in 0..<n { chunked.append(i * 3) }
    #expect(chunked.count == n)
    #expect(Array(chunked) == (0..<n).map { $0 * 3 })
    #expect(chunked.indices == 0..<n)
    #expect(chunked.isEmpty == (n == 0))
    if n > 0 { #expect(chunked.last == (n - 1) * 3) }
  }

  @Test func aCopyIsIndependentOfTheOriginal() {
    var original = ChunkedArray<String>()
    for i in 0..<600 { original.append("op\(i)") }
    var copy = original
    copy[300] = "changed"
    copy[599].append("!")
    copy.append("new")
    #expect(original[300] == "op300" && original[599] == "op599" && original.count == 600)
    #expect(copy[300] == "changed" && copy[599] == "op599!" && copy.count == 601)
    #expect(copy[299] == "op299" && copy[301] == "op301")
    original[0] = "first"
    #expect(copy[0] == "op0")
    #expect(original != copy)
    copy = original
    #expect(original == copy)
  }

  @Test func writesInPlaceThroughNestedFields() {
    var records = ChunkedArray<[Int]>()
    for _ in 0..<300 { records.append([]) }
    for i in records.indices { records[i].append(i) }
    records[257].append(-1)
    #expect(records[257] == [257, -1])
    #expect(records.map(\.count).reduce(0, +) == 301)
  }

  @Test func aReleasedChunkReadsAsItsStandInAndTheOthersAreUntouched() {
    var chunked = ChunkedArray<Int>()
    for i in 0..<600 { chunked.append(i) }
    chunked.releaseChunk(containing: 300, standIn: -1)
    #expect(chunked.count == 600)
    #expect((256..<512).allSatisfy { chunked[$0] == -1 })
    #expect(chunked[255] == 255 && chunked[512] == 512 && chunked[599] == 599)
    #expect(Array(chunked.prefix(256)) == Array(0..<256))
    chunked.append(600)
    #expect(chunked[600] == 600 && chunked.count == 601)
  }

  @Test func aChunkIsReleasedOnceEachOfItsElementsIsRetired() {
    var chunked = ChunkedArray<Int>()
    for i in 0..<600 { chunked.append(i) }
    // Out of order, all of the second chunk but one: it is still held, and reads as it was.
    for i in (257..<512).reversed() { chunked.retire(i, standIn: -1) }
    #expect(chunked.heldChunks == 3)
    #expect(chunked[300] == 300)
    chunked.retire(256, standIn: -1)
    #expect(chunked.heldChunks == 2)
    #expect((256..<512).allSatisfy { chunked[$0] == -1 })
    #expect(chunked[255] == 255 && chunked[512] == 512)
  }

  @Test func readingInPlaceSeesWhatTheSubscriptSees() {
    var records = ChunkedArray<[Int]>()
    for i in 0..<600 { records.append([i, -i]) }
    records.releaseChunk(containing: 0, standIn: [7])
    for i in [0, 255, 256, 511, 512, 599] { #expect(records.read(i) { $0.pointee } == records[i]) }
    #expect(records.read(3) { $0.pointee.count } == 1)
    #expect(records.read(300) { $0.pointee.last } == -300)
  }
}
