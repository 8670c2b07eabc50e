import OpsEngine
import OpsEvents

/// Reads one entry of `operations:`.
struct OperationDecoder {
  static let keys = OperationKey.names
  static let productionKeys = ["at", "operation"]

  let diagnostics: Diagnostics

  func operation(_ node: SourceNode, _ path: String) -> OperationDraft? {
    guard
      let map = diagnostics.mapping(
        node, path, expected: "an operation mapping like {name: download, work: 2}")
    else { return nil }
    let d = diagnostics
    d.checkKeys(map, allowed: Self.keys)
    var spec = OperationSpec(name: "")
    var draft = OperationDraft(path: path, name: NameRef(name: "", path: ""), spec: spec)

    // Every key is decoded here, in declaration order: the switch is exhaustive, so a key added to
    // `OperationKey` does not compile until it is read.
    map.forEach(OperationKey.self) { key, node in
      // Put together only where a branch needs it.
      var at: String { map.path(key.rawValue) }
      switch key {
      case .name:
        break  // required: read last
      case .queue:
        draft.queue = d.name(node, map.at("queue"), what: "a queue name")
      case .work:
        if let work = d.seconds(node, at) { spec.work.duration = work }
      case .priority:
        spec.priority = d.choice(node, at, what: "priority", QueuePriority.self)
      case .qos:
        if let qos = d.choice(node, at, what: "qos", QoS.self) { spec.qos = qos }
      case .addedAt:
        if let time = d.seconds(node, at) {
          draft.addedAt = time
          draft.addedAtMark = map.keyMark("addedAt")
        }
      case .dependencies:
        if !node.isNull, let refs = d.names(node, in: map, "dependencies", what: "operation name") {
          draft.dependencies = refs
        }
      case .conditions:
        if !node.isNull {
          ConditionDecoder(diagnostics: d).conditions(node, at, into: &spec, &draft)
        }
      case .cancellation:
        if let mode = d.choice(node, at, what: "cancellation", CancellationMode.self) {
          spec.cancellation = mode
        }
      case .checkEvery:
        if let every = d.seconds(node, at, positive: true) { spec.work.checkEvery = every }
      case .fails:
        if let text = node.textValue, !text.isEmpty, case .scalar = node {
          if d.oneLine(text, node, at, what: "an error message") { spec.work.fails = text }
        } else {
          d.error(node.mark, at, "expected an error message at \(at), found \(node.found)")
        }
      case .finishes:
        spec.work.finishes = finishes(node, at) ?? true
      case .produces:
        if !node.isNull { draft.productions = productions(node, at) }
      case .children:
        if !node.isNull, let refs = d.names(node, in: map, "children", what: "operation name") {
          if refs.isEmpty && node.sequence?.isEmpty == true {
            d.error(node.mark, at, "expected at least one child at \(at)")
          }
          draft.children = refs
        }
      case .blocks:
        if !node.isNull { spec.work.blocks = blocks(node, at) }
      case .timeout:
        if let t = d.seconds(node, at, positive: true) { spec.timeout = t }
      case .produced:
        if let value = d.bool(node, at) {
          draft.produced = value
          draft.producedMark = map.keyMark("produced")
        }
      case .barrier:
        if let value = d.bool(node, at) { spec.barrier = value }
      case .completion:
        if let value = d.bool(node, at) { spec.completion = value }
      case .async:
        if let value = d.bool(node, at) { spec.isAsync = value }
      }
    }
    checkCombinations(map, spec: spec, draft: draft)

    guard let node = d.require(map, "name", what: "the operation's name"),
      let name = d.name(node, map.at("name"), what: "an operation name")
    else { return nil }
    spec.name = name.name
    draft.name = name
    draft.spec = spec
    return draft
  }

  /// `finishes: never` (or false) is an async operation that never calls finish; true is the default.
  private func finishes(_ node: SourceNode, _ path: String) -> Bool? {
    if node.textValue == "never" { return false }
    if let value = node.boolValue { return value }
    diagnostics.error(
      node.mark, path, "expected \"never\" (or true, the default) at \(path), found \(node.found)",
      suggestion: node.textValue.flatMap { NearMiss.suggestion(for: $0, among: ["never"]) })
    return nil
  }

  private func productions(_ node: SourceNode, _ path: String) -> [OperationDraft.Production] {
    let d = diagnostics
    guard
      let items = d.sequence(node, path, expected: "a list like [{at: 0.5, operation: thumbnail}]")
    else { return [] }
    var result: [OperationDraft.Production] = []
    for (i, item) in items.enumerated() {
      let itemPath = Path.index(path, i)
      guard
        let map = d.mapping(
          item, itemPath, expected: "a mapping like {at: 0.5, operation: thumbnail}")
      else { continue }
      d.checkKeys(map, allowed: Self.productionKeys)
      let at = d.require(map, "at", what: "seconds into the producer's work").flatMap {
        d.seconds($0, map.path("at"))
      }
      let ref = d.require(map, "operation", what: "the produced operation's name").flatMap {
        d.name($0, map.path("operation"), what: "an operation name")
      }
      guard let at, let ref else { continue }
      result.append(.init(at: at, atMark: map["at"]?.mark, atPath: map.path("at"), ref: ref))
    }
    return result
  }

  private func blocks(_ node: SourceNode, _ path: String) -> [Double] {
    guard
      let items = diagnostics.sequence(
        node, path, expected: "a list of block durations like [1, 0.5]")
    else { return [] }
    if items.isEmpty {
      diagnostics.error(node.mark, path, "expected at least one block duration at \(path)")
    }
    return items.enumerated().compactMap { diagnostics.seconds($1, Path.index(path, $0)) }
  }

  /// Keys that contradict each other: the engine would silently ignore one of them.
  private func checkCombinations(_ map: MapNode, spec: OperationSpec, draft: OperationDraft) {
    let d = diagnostics
    if map.has("children") {
      for key in ["work", "blocks", "fails", "finishes", "checkEvery"] where map.has(key) {
        d.error(
          map.keyMark(key), map.path(key),
          "a group has no work of its own: remove '\(key)' at \(map.path) (it has children)")
      }
    }
    if map.has("blocks") && map.has("work") {
      d.error(
        map.keyMark("work"), map.path("work"),
        "give either 'work' or 'blocks' at \(map.path): a block operation runs as long as its longest block"
      )
    }
    if !spec.work.finishes && map.has("fails") {
      d.error(
        map.keyMark("fails"), map.path("fails"),
        "an operation that never finishes cannot fail: remove 'fails' or 'finishes: never' at \(map.path)"
      )
    }
  }
}
