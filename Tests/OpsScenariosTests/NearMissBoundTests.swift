import Testing

@testable import OpsScenarios

/// "Did you mean" stays cheap on files full of long unknown names: comparing every unknown name in
/// full against every operation would take many seconds on a 200 kB file.
@Suite struct NearMissBoundTests {
  /// 3,000 operations with 200-letter names that differ only at the end, each looked up by a near
  /// miss: the work is bounded by construction, not by luck.
  @Test func suggestionsAmongThousandsOfLongNamesDoBoundedWork() {
    let stem = String(repeating: "averylongoperationname", count: 9)
    let names = (0..<3000).map { "\(stem)\($0)" }
    let index = NearMiss.Index(names)
    let queries = 100
    for i in 0..<queries {
      _ = index.suggestion(for: "\(stem)x\(i)")
    }
    // Every candidate goes through O(1) filters; at most maxVerifications per query are compared,
    // each on at most maxLength scalars (a band of the edit distance, a containment scan, a prefix).
    #expect(index.filtered <= queries * names.count)
    #expect(index.verified <= queries * NearMiss.maxVerifications)
    let perComparison =
      NearMiss.maxLength * 5 + NearMiss.maxLength * NearMiss.maxLength + NearMiss.maxLength
    #expect(index.steps <= index.verified * perComparison)
  }

  @Test func longNamesStillGetASuggestionFromTheirStart() {
    let stem = String(repeating: "step", count: 30)
    let index = NearMiss.Index(["\(stem)Download", "other"])
    #expect(index.suggestion(for: "\(stem)Downlaod") == "\(stem)Download")
    #expect(index.suggestion(for: "unrelated") == nil)
  }

  @Test func typosAndSpellingsAreStillFound() {
    let index = NearMiss.Index(["download", "resize", "upload", "thumbnails"])
    #expect(index.suggestion(for: "donwload") == "download")
    #expect(index.suggestion(for: "Resize") == "resize")
    #expect(index.suggestion(for: "thumbnail") == "thumbnails")
    #expect(index.suggestion(for: "uploadLater") == "upload")
    #expect(index.suggestion(for: "zz") == nil)
  }

  @Test func bandedDistanceAgreesWithTheFullOne() {
    func full(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
      var d = Array(0...b.count)
      for i in 1...max(1, a.count) where !a.isEmpty {
        var row = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
          row[j] = min(d[j] + 1, row[j - 1] + 1, d[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        d = row
      }
      return a.isEmpty ? b.count : d[b.count]
    }
    let words = [
      "", "a", "ab", "ba", "abc", "acb", "kitten", "sitting", "download", "donwload",
      "dowload", "downloads", "xdownload", "saturday", "sunday",
    ]
    for a in words {
      for b in words {
        let sa = Array(a.unicodeScalars)
        let sb = Array(b.unicodeScalars)
        for limit in 0...3 {
          let expected = full(sa, sb)
          #expect(
            NearMiss.distance(sa, sb, limit: limit) == (expected <= limit ? expected : nil),
            "\(a) \(b) \(limit)")
        }
      }
    }
  }

  /// The file from the issue, in spirit: thousands of operations whose long dependency names are all
  /// unknown. Only the first 100 problems are kept, and each suggestion is bounded.
  @Test func fileWithThousandsOfLongUnknownNamesIsReported() {
    let stem = String(repeating: "x", count: 60)
    var yaml = "operations:\n"
    for i in 0..<2000 {
      yaml += "  - {name: \(stem)op\(i), dependencies: [\(stem)dep\(i)]}\n"
    }
    #expect(yaml.utf8.count > 200_000)
    let found = problems(yaml)
    #expect(found.count == Diagnostics.limit + 1)
    #expect(found.first?.message.hasPrefix("unknown operation '\(stem)dep0'") == true)
  }
}
