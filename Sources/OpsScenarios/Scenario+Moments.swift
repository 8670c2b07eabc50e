import OpsEngine
import OpsEvents

extension Scenario {
  /// The order in which the scripted actions run (by time; at the same time, in file order): the
  /// position of action `index` among the `command` events with source `action`.
  public func actionOrdinal(ofAction index: Int) -> Int {
    let order = actions.indices.sorted { (actions[$0].at, $0) < (actions[$1].at, $1) }
    return order.firstIndex(of: index) ?? index
  }

  /// The teaching moments as a player matches them against events, with their claims.
  public var playMoments: [Moment] {
    moments.map { m in
      let trigger: Moment.Trigger =
        switch m.trigger {
        case .time(let t): .time(t)
        case .state(let op, let to): .state(operation: op, to: to)
        case .action(let i): .action(ordinal: actionOrdinal(ofAction: i))
        }
      return Moment(trigger, caption: m.caption, claims: m.claims.map(\.claim))
    }
  }

  /// Plays the scenario as the board does when nobody presses a key and reports, at its place in the
  /// file, every claim of a moment that does not hold where the moment is reached, and every moment
  /// with claims that the run never reaches.
  public func momentProblems() -> [ScenarioProblem] {
    guard moments.contains(where: { !$0.claims.isEmpty }) else { return [] }
    let (stops, _) = MomentRun.play(makeRuntime(), moments: playMoments)
    var problems: [ScenarioProblem] = []
    for stop in stops {
      let moment = moments[stop.moment]
      for failure in stop.failures {
        let claim = moment.claims[failure.claim]
        problems.append(
          ScenarioProblem(
            file: source, line: claim.line, column: claim.column, path: claim.path,
            message:
              "moment \(stop.moment + 1) claims \"\(claim.claim.text)\", but at "
              + "\(secondsText(stop.time, decimals: 3))s (event \(stop.seq)) \(failure.found)"))
      }
    }
    let reached = Set(stops.map(\.moment))
    for (i, moment) in moments.enumerated() where !reached.contains(i) && !moment.claims.isEmpty {
      let first = moment.claims[0]
      problems.append(
        ScenarioProblem(
          file: source, line: first.line, column: first.column, path: first.path,
          message: "moment \(i + 1) is never reached when the scenario plays, so its claims "
            + "cannot hold"))
    }
    return problems
  }
}
