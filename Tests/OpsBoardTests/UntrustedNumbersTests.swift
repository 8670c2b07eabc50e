import OpsCells
import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

/// Numbers a scenario may hold and the board computes with: each saturates or is refused, never
/// traps.
@Suite struct UntrustedNumbersTests {
  static let huge = """
    queues:
      - {name: wide, maxConcurrent: 9223372036854775807}
    operations:
      - {name: a, queue: wide, work: 1}
    """

  func session() throws -> BoardSession {
    let scenario = try ScenarioLoader.parse(Self.huge, file: "huge.yaml", defaultID: "huge")
    return BoardSession(
      title: scenario.title, notes: scenario.notes, speed: 1, paused: true,
      makeRuntime: { scenario.makeRuntime() })
  }

  /// `+` on the largest limit trapped ("arithmetic overflow" in `changeLimit`).
  @Test func plusOnTheLargestLimitIsRefusedNotATrap() throws {
    let s = try session()
    press(s, .character("+"))
    #expect(
      screenText(s, 120, 30).contains("allows 9223372036854775807 already, the most there is"))
    press(s, .character("-"), .character("+"))
    #expect(s.model.queue(named: "wide")?.maxConcurrent == Int.max)
  }

  /// Every key on the largest limit, and the board drawn after each: nothing computes past it.
  @Test func everyKeyOnTheLargestLimitDrawsWithoutATrap() throws {
    let s = try session()
    let keys =
      "+-*sSc.,<>[]{}tTwWnNgGlLdDhHpPQmM?/ 0123456789".map { KeyInput.character($0) }
      + [.tab, .backTab, .up, .down, .left, .right, .enter, .escape, .home, .end]
    for key in keys {
      _ = s.handle(key)
      _ = s.render(width: 120, height: 40, ascii: false)
      _ = s.render(width: 40, height: 12, ascii: true)
    }
    s.tick(elapsed: 5)
    _ = s.render(width: 120, height: 40, ascii: false)
  }
}
