/// Finds the name someone probably meant: same letters in another case, a typo or two, a common
/// synonym (`dependsOn` for `dependencies`), or a longer or shorter spelling of the same word.
enum NearMiss {
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

  static func suggestion(for word: String, among candidates: [String]) -> String? {
    guard !word.isEmpty else { return nil }
    let lower = word.lowercased()
    if let mapped = synonyms[lower]?.first(where: candidates.contains) { return mapped }
    var best: (score: Int, name: String)?
    for candidate in candidates where candidate != word {
      guard let score = score(lower, candidate.lowercased()) else { continue }
      if best == nil || score < best!.score { best = (score, candidate) }
    }
    return best?.name
  }

  /// Lower is closer; nil when too far to suggest.
  private static func score(_ word: String, _ candidate: String) -> Int? {
    if word == candidate { return 0 }
    let a = Array(word.unicodeScalars)
    let b = Array(candidate.unicodeScalars)
    let allowed = min(a.count, b.count) <= 3 ? 1 : 2
    if abs(a.count - b.count) <= allowed, let d = distance(a, b, limit: allowed) {
      return d
    }
    // One spelling contained in the other (`isSuspended`, `maxConcurrentOperationCount`), or a long
    // shared start (`dependsOn`, `dependencies`).
    let shorter = min(a.count, b.count)
    if shorter >= 4, word.contains(candidate) || candidate.contains(word) {
      return 10 + abs(a.count - b.count)
    }
    let prefix = zip(a, b).prefix { $0 == $1 }.count
    if prefix >= 5 || (prefix >= 4 && prefix * 2 >= shorter) { return 20 + abs(a.count - b.count) }
    return nil
  }

  /// Levenshtein distance, or nil as soon as it must exceed `limit` (keeps large name sets cheap).
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
    if a.isEmpty { return b.count <= limit ? b.count : nil }
    if b.isEmpty { return a.count <= limit ? a.count : nil }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMin = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        rowMin = min(rowMin, current[j])
      }
      if rowMin > limit { return nil }
      swap(&previous, &current)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }
}
