/// Finds the name someone probably meant: same letters in another case, a typo or two, a common
/// synonym (`dependsOn` for `dependencies`), or a longer or shorter spelling of the same word.
///
/// The work is bounded by construction, whatever the file holds: names are compared on their first
/// `maxLength` scalars, every candidate first goes through O(1) filters (length, a bitmask of its
/// letters, its first letters), and only the first `maxVerifications` survivors are compared in full.
/// A file with thousands of long unknown names therefore costs about (candidates + a constant) per
/// suggestion, instead of (candidates × length²).
public enum NearMiss {
  /// Words people reach for from other APIs, mapped to this format's key.
  static let synonyms: [String: [String]] = [
    "dependson": ["dependencies"], "depends": ["dependencies"], "deps": ["dependencies"],
    "after": ["dependencies"], "requires": ["dependencies"],
    "concurrency": ["maxConcurrent"], "maxconcurrentoperationcount": ["maxConcurrent"],
    "limit": ["maxConcurrent"], "width": ["maxConcurrent"], "setmaxconcurrent": ["maxConcurrent"],
    "duration": ["work"], "seconds": ["work"], "length": ["work"], "time": ["work", "at"],
    "queuepriority": ["priority"], "qualityofservice": ["qos"],
    "delay": ["addedAt", "at"], "start": ["addedAt", "at"], "startat": ["addedAt", "at"],
    "addat": ["addedAt"], "when": ["at", "addedAt"],
    "interval": ["checkEvery"], "checkinterval": ["checkEvery"],
    "error": ["fails"], "failswith": ["fails"], "group": ["children"],
    "suboperations": ["children"], "operations": ["children"],
    "paused": ["suspended"], "issuspended": ["suspended"],
    "id": ["scenario"], "name": ["scenario"], "description": ["notes"], "lesson": ["notes"],
    "ops": ["operations"], "exclusive": ["mutuallyExclusive"], "category": ["mutuallyExclusive"],
    "not": ["negated"], "pause": ["suspend"], "stop": ["cancel"], "unpause": ["resume"],
    "continue": ["resume"], "kill": ["cancel"], "cancelall": ["cancelAll"], "outcome": ["result"],
  ]

  /// Names are compared on at most this many scalars: no real name is longer, and it bounds the cost
  /// of one comparison.
  static let maxLength = 64
  /// At most this many candidates that pass the cheap filters are compared in full, per suggestion.
  static let maxVerifications = 64

  public static func suggestion(for word: String, among candidates: [String]) -> String? {
    Index(candidates).suggestion(for: word)
  }

  /// The candidates, prepared once, for many suggestions among the same names (every unknown
  /// dependency of a file is looked up among the same operations).
  final class Index {
    struct Candidate {
      var name: String
      var lower: [Unicode.Scalar]
      /// Longer than `maxLength` in full (only its first scalars are kept in `lower`).
      var truncated: Bool
      var mask: UInt64
    }

    private let candidates: [Candidate]
    private let names: Set<String>
    /// Work done so far: candidates that went through the cheap filters, candidates compared in
    /// full, and inner steps of those comparisons (what tests bound).
    private(set) var filtered = 0
    private(set) var verified = 0
    private(set) var steps = 0

    init(_ names: [String]) {
      self.names = Set(names)
      candidates = names.map { name in
        let (lower, truncated) = NearMiss.prepare(name)
        return Candidate(name: name, lower: lower, truncated: truncated, mask: NearMiss.mask(lower))
      }
    }

    func suggestion(for word: String) -> String? {
      guard !word.isEmpty else { return nil }
      let (a, wordTruncated) = NearMiss.prepare(word)
      if !wordTruncated,
        let mapped = synonyms[String(String.UnicodeScalarView(a))]?.first(
          where: names.contains)
      {
        return mapped
      }
      let maskA = NearMiss.mask(a)
      var best: (score: Int, name: String)?
      for candidate in candidates where candidate.name != word {
        filtered += 1
        let b = candidate.lower
        let exact = !wordTruncated && !candidate.truncated
        let shorter = min(a.count, b.count)
        let allowed = shorter <= 3 ? 1 : 2
        let diff = abs(a.count - b.count)
        // Edit distance d changes at most 2d letters of the set; one spelling contained in the other
        // has a subset of its letters; a shared start of 4 has the same first 4.
        let couldBeTypo =
          exact && diff <= allowed && (maskA ^ candidate.mask).nonzeroBitCount <= 2 * allowed
        let small = a.count <= b.count ? maskA : candidate.mask
        let large = a.count <= b.count ? candidate.mask : maskA
        let couldContain = exact && shorter >= 4 && small & ~large == 0
        let couldSharePrefix = shorter >= 4 && a[0..<4] == b[0..<4]
        guard couldBeTypo || couldContain || couldSharePrefix else { continue }
        guard verified < NearMiss.maxVerifications else { break }
        verified += 1
        let score = score(a, b, typo: couldBeTypo, contain: couldContain, allowed: allowed)
        guard let score else { continue }
        if best == nil || score < best!.score { best = (score, candidate.name) }
        if score == 0 { break }
      }
      return best?.name
    }

    /// Lower is closer; nil when too far to suggest.
    private func score(
      _ a: [Unicode.Scalar], _ b: [Unicode.Scalar], typo: Bool, contain: Bool, allowed: Int
    ) -> Int? {
      let diff = abs(a.count - b.count)
      if typo {
        var cells = 0
        let d = NearMiss.distance(a, b, limit: allowed, cells: &cells)
        steps += cells
        if let d { return d }
      }
      if contain {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        var cells = 0
        let found = NearMiss.contains(long, short, cells: &cells)
        steps += cells
        if found { return 10 + diff }
      }
      var prefix = 0
      while prefix < min(a.count, b.count), a[prefix] == b[prefix] { prefix += 1 }
      steps += prefix
      let shorter = min(a.count, b.count)
      if prefix >= 5 || (prefix >= 4 && prefix * 2 >= shorter) { return 20 + diff }
      return nil
    }
  }

  /// The lowercased scalars, at most `maxLength` of them, and whether the name was longer.
  static func prepare(_ name: String) -> ([Unicode.Scalar], Bool) {
    var scalars: [Unicode.Scalar] = []
    scalars.reserveCapacity(min(name.unicodeScalars.count, maxLength))
    for scalar in name.unicodeScalars.prefix(maxLength + 1) {
      if scalar.isASCII {
        let v = scalar.value
        scalars.append(v >= 65 && v <= 90 ? Unicode.Scalar(v + 32)! : scalar)
      } else {
        // Lowercasing may give several scalars (rare); keep the first, which is what matters here.
        scalars.append(scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar)
      }
    }
    let truncated = scalars.count > maxLength
    if truncated { scalars.removeLast() }
    return (scalars, truncated)
  }

  /// A 64-bit set of the letters used (hashed): a cheap test of which names could be close.
  static func mask(_ scalars: [Unicode.Scalar]) -> UInt64 {
    var mask: UInt64 = 0
    for s in scalars { mask |= 1 << (UInt64(s.value) % 64) }
    return mask
  }

  /// Whether `short` occurs in `long` (both at most `maxLength` long).
  static func contains(_ long: [Unicode.Scalar], _ short: [Unicode.Scalar], cells: inout Int)
    -> Bool
  {
    guard short.count <= long.count else { return false }
    if short.isEmpty { return true }
    for start in 0...(long.count - short.count) {
      var i = 0
      while i < short.count, long[start + i] == short[i] { i += 1 }
      cells += i + 1
      if i == short.count { return true }
    }
    return false
  }

  /// Levenshtein distance, or nil as soon as it must exceed `limit` (keeps large name sets cheap).
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
    var cells = 0
    return distance(a, b, limit: limit, cells: &cells)
  }

  /// Levenshtein distance within a band of `limit` around the diagonal (cells outside it are more
  /// than `limit` anyway), counting the cells computed.
  static func distance(
    _ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int, cells: inout Int
  ) -> Int? {
    if abs(a.count - b.count) > limit { return nil }
    if a.isEmpty { return b.count <= limit ? b.count : nil }
    if b.isEmpty { return a.count <= limit ? a.count : nil }
    let outside = limit + 1
    var previous = (0...b.count).map { min($0, outside) }
    var current = [Int](repeating: outside, count: b.count + 1)
    for i in 1...a.count {
      let low = max(1, i - limit)
      let high = min(b.count, i + limit)
      current[0] = min(i, outside)
      if low > 1 { current[low - 1] = outside }
      var rowMin = current[0] <= limit && low == 1 ? current[0] : outside
      for j in low...high {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        let value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        current[j] = min(value, outside)
        rowMin = min(rowMin, current[j])
      }
      cells += high - low + 1
      if high < b.count { current[high + 1] = outside }
      if rowMin > limit { return nil }
      swap(&previous, &current)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }
}
