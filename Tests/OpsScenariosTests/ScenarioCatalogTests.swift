import Foundation
import Testing

@testable import OpsScenarios

/// The embedded built-ins and the CLI's NAME|PATH rule.
@Suite struct ScenarioCatalogTests {
  @Test func everyEmbeddedFileIsValid() {
    for name in Catalog.names {
      #expect(throws: Never.self, "\(name)") { try Catalog.resolve(name) }
    }
    #expect(Catalog.all.count == Catalog.names.count)
    #expect(Catalog.all.map(\.source) == Catalog.names.map { "builtin:\($0)" })
  }

  @Test(.enabled(if: Catalog.names.contains(Catalog.defaultName)))
  func defaultComesFirst() throws {
    #expect(Catalog.all.first?.id == Catalog.defaultName)
    #expect(Catalog.named("tour")?.id == "tour")
    #expect(try Catalog.resolve("builtin:tour").id == "tour")
  }

  @Test(.enabled(if: Catalog.names.contains("tour")))
  func unknownNameSuggestsTheNearest() throws {
    let error = try #require(throws: ScenarioError.self) { try Catalog.resolve("tuor") }
    #expect(error.problems.count == 1)
    #expect(error.problems.first?.file == "tuor")
    #expect(error.problems.first?.suggestion == "tour")
    #expect(
      error.problems.first?.message.hasPrefix("no built-in scenario named 'tuor' and no such file")
        == true)
    #expect(Catalog.named("tuor") == nil)
  }

  @Test func pathsLoadFiles() throws {
    let dir = FileManager.default.temporaryDirectory.appending(path: "opsview-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appending(path: "mine.yml").path
    try "operations: [{name: a}]\n".write(toFile: path, atomically: true, encoding: .utf8)
    let s = try Catalog.resolve(path)
    #expect(s.id == "mine")
    #expect(s.source == path)
    // A path that does not exist is a file error, not a name lookup.
    let error = try #require(throws: ScenarioError.self) {
      try Catalog.resolve(dir.appending(path: "nope.yaml").path)
    }
    #expect(error.problems.map(\.message) == ["no such file"])
  }

  @Test func fileErrorsComeThroughResolve() throws {
    let path = malformedDirectory.appending(path: "unknown-key.yaml").path
    let error = try #require(throws: ScenarioError.self) { try Catalog.resolve(path) }
    #expect(
      error.description
        == "\(path):8:5: error: unknown key 'dependsOn' at operations[2] — did you mean 'dependencies'?"
    )
  }
}

@Suite struct ScenarioNearMissTests {
  @Test(arguments: [
    ("dependsOn", "dependencies"), ("dependency", "dependencies"),
    ("maxconcurrent", "maxConcurrent"),
    ("maxConcurrentOperationCount", "maxConcurrent"), ("addAt", "addedAt"), ("wrok", "work"),
    ("timout", "timeout"), ("isSuspended", "suspended"), ("childs", "children"),
  ])
  func suggestsOperationKeys(_ typo: String, _ meant: String) {
    let keys = OperationDecoder.keys + ScenarioDecoder.queueKeys
    #expect(NearMiss.suggestion(for: typo, among: keys) == meant)
  }

  @Test func staysQuietWhenNothingIsClose() {
    #expect(NearMiss.suggestion(for: "zz", among: ["a", "download"]) == nil)
    #expect(NearMiss.suggestion(for: "banana", among: OperationDecoder.keys) == nil)
    #expect(NearMiss.suggestion(for: "", among: ["a"]) == nil)
  }

  @Test func distanceIsBounded() {
    let a = Array("kitten".unicodeScalars)
    let b = Array("sitting".unicodeScalars)
    #expect(NearMiss.distance(a, b, limit: 3) == 3)
    #expect(NearMiss.distance(a, b, limit: 2) == nil)
  }
}
