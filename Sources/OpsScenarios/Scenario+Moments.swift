import OpsEngine

extension Scenario {
  /// The order in which the scripted actions run (by time; at the same time, in file order): the
  /// position of action `index` among the `command` events with source `action`.
  public func actionOrdinal(ofAction index: Int) -> Int {
    let order = actions.indices.sorted { (actions[$0].at, $0) < (actions[$1].at, $1) }
    return order.firstIndex(of: index) ?? index
  }
}
