import OpsEngine
import OpsEvents

/// The first pass: reads the YAML tree into a draft, reporting every malformed value with its place.
struct ScenarioDecoder {
  static let topKeys = TopLevelKey.names
  static let queueKeys = QueueKey.names

  let diagnostics: Diagnostics

  func decode(_ root: SourceNode, defaultID: String) -> ScenarioDraft? {
    guard case .mapping = root else {
      diagnostics.error(
        root.mark, "",
        "expected a mapping of scenario keys (\(listing(Self.topKeys, conjunction: "and"))) at the "
          + "top level, found \(root.found)")
      return nil
    }
    guard let top = diagnostics.mapping(root, "", expected: "a mapping") else { return nil }
    diagnostics.checkKeys(top, allowed: Self.topKeys)
    var draft = ScenarioDraft(id: defaultID)
    if let node = top["scenario"],
      let id = diagnostics.name(node, "scenario", what: "a scenario id")
    {
      draft.id = id.name
    }
    if let node = top["title"], let title = diagnostics.text(node, "title", oneLine: "a title") {
      draft.title = title
    }
    if let node = top["notes"], let notes = diagnostics.text(node, "notes") { draft.notes = notes }
    if let node = top["speed"] {
      if let speed = node.numberValue, speed > 0, speed <= 1000 {
        draft.speed = speed
      } else {
        diagnostics.error(
          node.mark, "speed",
          "expected a playback speed > 0 and <= 1000 at speed, found \(node.found)")
      }
    }
    if let node = top["queues"], !node.isNull,
      let items = diagnostics.sequence(node, "queues", expected: "a list of queues")
    {
      draft.queues = items.enumerated().compactMap { queue($1, Path.index("queues", $0)) }
    }
    if let node = top["operations"], !node.isNull {
      if let items = diagnostics.sequence(node, "operations", expected: "a list of operations") {
        let decoder = OperationDecoder(diagnostics: diagnostics)
        // Reserved, not grown: a draft is a few hundred bytes, and doubling left up to half unused.
        draft.operations.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
          if let operation = decoder.operation(item, Path.index("operations", index)) {
            draft.operations.append(operation)
          }
        }
        if items.isEmpty {
          diagnostics.error(
            node.mark, "operations", "expected at least one operation at operations")
        }
      }
    } else {
      diagnostics.error(
        top.mark, "operations",
        "missing 'operations' at the top level: a scenario needs at least one")
    }
    if let node = top["actions"], !node.isNull,
      let items = diagnostics.sequence(node, "actions", expected: "a list of actions")
    {
      let decoder = ActionDecoder(diagnostics: diagnostics)
      draft.actions = items.enumerated().compactMap {
        decoder.action($1, Path.index("actions", $0))
      }
    }
    if let node = top["moments"], !node.isNull,
      let items = diagnostics.sequence(node, "moments", expected: "a list of moments")
    {
      let decoder = MomentDecoder(diagnostics: diagnostics)
      draft.moments = items.enumerated().compactMap {
        decoder.moment($1, Path.index("moments", $0))
      }
    }
    return draft
  }

  private func queue(_ node: SourceNode, _ path: String) -> QueueDraft? {
    guard
      let map = diagnostics.mapping(
        node, path, expected: "a queue mapping like {name: network, maxConcurrent: 2}")
    else { return nil }
    diagnostics.checkKeys(map, allowed: Self.queueKeys)
    var spec = QueueSpec(name: "")
    // Exhaustive: a key added to `QueueKey` does not compile until it is read.
    map.forEach(QueueKey.self) { key, node in
      // Put together only where a branch needs it.
      var at: String { map.path(key.rawValue) }
      switch key {
      case .name:
        break  // required: read last
      case .maxConcurrent:
        if let limit = diagnostics.limit(node, at) { spec.maxConcurrent = limit }
      case .suspended:
        if let value = diagnostics.bool(node, at) { spec.suspended = value }
      case .qos:
        if let qos = diagnostics.choice(node, at, what: "qos", QoS.self) { spec.qos = qos }
      }
    }
    guard let node = diagnostics.require(map, "name", what: "the queue's name"),
      let name = diagnostics.name(node, map.path("name"), what: "a queue name")
    else { return nil }
    spec.name = name.name
    return QueueDraft(name: name, spec: spec)
  }
}
