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

    if let node = map["queue"] {
      draft.queue = d.name(node, map.at("queue"), what: "a queue name")
    }
    if let node = map["work"], let work = d.seconds(node, map.path("work")) {
      spec.work.duration = work
    }
    if let node = map["priority"] {
      spec.priority = d.choice(node, map.path("priority"), what: "priority", QueuePriority.self)
    }
    if let node = map["qos"],
      let qos = d.choice(node, map.path("qos"), what: "qos", QoS.self)
    {
      spec.qos = qos
    }
    if let node = map["addedAt"], let at = d.seconds(node, map.path("addedAt")) {
      draft.addedAt = at
      draft.addedAtMark = map.keyMark("addedAt")
    }
    if let node = map["dependencies"], !node.isNull,
      let refs = d.names(node, in: map, "dependencies", what: "operation name")
    {
      draft.dependencies = refs
    }
    if let node = map["conditions"], !node.isNull {
      ConditionDecoder(diagnostics: d).conditions(node, map.path("conditions"), into: &spec, &draft)
    }
    if let node = map["cancellation"],
      let mode = d.choice(
        node, map.path("cancellation"), what: "cancellation", CancellationMode.self)
    {
      spec.cancellation = mode
    }
    if let node = map["checkEvery"],
      let every = d.seconds(node, map.path("checkEvery"), positive: true)
    {
      spec.work.checkEvery = every
    }
    if let node = map["fails"] {
      if let text = node.textValue, !text.isEmpty, case .scalar = node {
        if d.oneLine(text, node, map.path("fails"), what: "an error message") {
          spec.work.fails = text
        }
      } else {
        d.error(
          node.mark, map.path("fails"),
          "expected an error message at \(map.path("fails")), found \(node.found)")
      }
    }
    if let node = map["finishes"] {
      spec.work.finishes = finishes(node, map.path("finishes")) ?? true
    }
    if let node = map["produces"], !node.isNull {
      draft.productions = productions(node, map.path("produces"))
    }
    if let node = map["children"], !node.isNull,
      let refs = d.names(node, in: map, "children", what: "operation name")
    {
      if refs.isEmpty && node.sequence?.isEmpty == true {
        d.error(
          node.mark, map.path("children"), "expected at least one child at \(map.path("children"))")
      }
      draft.children = refs
    }
    if let node = map["blocks"], !node.isNull {
      spec.work.blocks = blocks(node, map.path("blocks"))
    }
    if let node = map["timeout"], let t = d.seconds(node, map.path("timeout"), positive: true) {
      spec.timeout = t
    }
    if let node = map["produced"], let value = d.bool(node, map.path("produced")) {
      draft.produced = value
      draft.producedMark = map.keyMark("produced")
    }
    if let node = map["barrier"], let value = d.bool(node, map.path("barrier")) {
      spec.barrier = value
    }
    if let node = map["completion"], let value = d.bool(node, map.path("completion")) {
      spec.completion = value
    }
    if let node = map["async"], let value = d.bool(node, map.path("async")) { spec.isAsync = value }
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
