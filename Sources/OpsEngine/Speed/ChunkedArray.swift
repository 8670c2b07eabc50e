import OpsEvents

/// An array kept in fixed-size chunks, each copied on write by itself: a copy of the whole shares
/// every chunk until that chunk is written. The board keeps copies of the projection as time-travel
/// checkpoints; with one flat array each checkpoint held its own copy of every operation's record
/// (about 150 MB at 50,000 operations), with chunks it holds only those changed since the last one.
/// The engine core keeps its records in one too, for `releaseChunk`: no large block is ever
/// reallocated, and the memory of retired operations is given back.
public struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
  public typealias Index = Int
  public typealias Indices = Range<Int>

  /// 256 elements a chunk: an operation's record is a few hundred bytes, so a chunk copied because
  /// one of its operations changed costs tens of kilobytes.
  @usableFromInline static var shift: Int { 8 }
  @usableFromInline static var mask: Int { (1 << shift) - 1 }
  /// Elements a chunk holds.
  static var chunkSize: Int { 1 << shift }

  @usableFromInline var chunks: [[Element]] = []
  public private(set) var count = 0
  /// What every element of a released chunk reads as (see `releaseChunk`): empty until a chunk is
  /// released, then that one element. Kept in an array, out of line: an optional element inline
  /// made the collection as large as a record (the projection's are ~300 bytes), and `read` copied
  /// all of it before every read.
  @usableFromInline var standIn: [Element] = []
  /// By chunk: its elements counted by `retire` (empty until one is).
  private var retiredInChunk: [Int] = []

  public init() {}

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }
  public var indices: Range<Int> { 0..<count }

  public subscript(i: Int) -> Element {
    get {
      precondition(i >= 0 && i < count, "index \(i) out of range 0..<\(count)")
      // A released chunk is empty (a chunk in use never is: it is created with its first element).
      if chunks[i >> Self.shift].isEmpty { return standIn[0] }
      return chunks[i >> Self.shift][i & Self.mask]
    }
    _modify {
      precondition(i >= 0 && i < count, "index \(i) out of range 0..<\(count)")
      yield &chunks[i >> Self.shift][i & Self.mask]
    }
    set {
      precondition(i >= 0 && i < count, "index \(i) out of range 0..<\(count)")
      chunks[i >> Self.shift][i & Self.mask] = newValue
    }
  }

  /// Takes the element (`consuming`): a caller's last use of it is moved in rather than copied.
  public mutating func append(_ element: consuming Element) {
    if count & Self.mask == 0 {
      var chunk: [Element] = []
      chunk.reserveCapacity(1 << Self.shift)
      chunk.append(element)
      chunks.append(chunk)
    } else {
      chunks[chunks.count - 1].append(element)
    }
    count += 1
  }

  /// What `get` reads from element `i`, through a pointer to it in place: a closure given the element
  /// itself receives a copy of it (a retain and release of each of its fields, for the projection's
  /// records a dozen), which was ~5% of the lints' delivery thread and 40% of the board's graph
  /// layout at 10,000 operations. Read only the fields needed (`$0.pointee.name`); the pointer is
  /// valid only inside `get`.
  @inlinable @inline(__always)
  public func read<R>(_ i: Int, _ get: (UnsafePointer<Element>) -> R) -> R {
    precondition(i >= 0 && i < count, "index \(i) out of range 0..<\(count)")
    let chunk = i >> Self.shift
    if chunks[chunk].isEmpty { return standIn.withUnsafeBufferPointer { get($0.baseAddress!) } }
    return chunks[chunk].withUnsafeBufferPointer { get($0.baseAddress! + (i & Self.mask)) }
  }

  /// Chunks holding elements (not released).
  var heldChunks: Int { chunks.reduce(0) { $0 + ($1.isEmpty ? 0 : 1) } }

  /// Frees the full chunk holding element `i`: each of its elements reads as `standIn` from now on,
  /// and writing one is an error. For records nothing will change again (the live runtime's lints
  /// forget retired operations, see `Projection.retire`); indices and `count` are unchanged.
  mutating func releaseChunk(containing i: Int, standIn: Element) {
    precondition(
      i >= 0 && (i | Self.mask) < count, "chunk of index \(i) is not a full chunk of 0..<\(count)")
    self.standIn = [standIn]
    chunks[i >> Self.shift] = []
  }

  /// Counts element `i` as retired (never written again; each element counted once). Once every
  /// element of its chunk is, the chunk is released (`releaseChunk`) and each reads as `standIn`,
  /// made only then (a projection's stand-in, a static record passed in every call, was retained
  /// and released field by field at every retirement).
  mutating func retire(_ i: Int, standIn: @autoclosure () -> Element) {
    let chunk = i >> Self.shift
    if retiredInChunk.count <= chunk {
      retiredInChunk += repeatElement(0, count: chunk + 1 - retiredInChunk.count)
    }
    retiredInChunk[chunk] += 1
    if retiredInChunk[chunk] == Self.chunkSize { releaseChunk(containing: i, standIn: standIn()) }
  }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: Equatable where Element: Equatable {
  public static func == (a: Self, b: Self) -> Bool {
    a.count == b.count && a.elementsEqual(b)
  }
}
