import OpsEngine
import OpsEvents

/// Reads `conditions:`. Items are `{mutuallyExclusive: CATEGORY}`, a built-in condition by name
/// (`noFailedDependencies`, `noCancelledDependencies`), or a scripted `{name, dependency, evaluate,
/// result, error, negated, silent}`.
struct ConditionDecoder {
  static let builtins = ["noFailedDependencies", "noCancelledDependencies"]

  let diagnostics: Diagnostics

  func conditions(
    _ node: SourceNode, _ path: String, into spec: inout OperationSpec,
    _ draft: inout OperationDraft
  ) {
    guard
      let items = diagnostics.sequence(
        node, path, expected: "a list of conditions like [{name: loggedIn}]")
    else { return }
    // The categories seen so far, for the "listed twice" check without a scan per item.
    var categories = Set(spec.exclusivity)
    for (i, item) in items.enumerated() {
      let itemPath = Path.index(path, i)
      if case .scalar = item {
        if let check = builtin(item, itemPath) {
          spec.conditions.append(ConditionSpec(name: item.textValue!, check: check))
        }
        continue
      }
      guard
        let map = diagnostics.mapping(
          item, itemPath,
          expected: "a condition like {name: loggedIn} or {mutuallyExclusive: Alert}")
      else { continue }
      if map.has(ConditionKey.mutuallyExclusive.rawValue) {
        diagnostics.checkKeys(map, allowed: [ConditionKey.mutuallyExclusive.rawValue])
        if let category = diagnostics.name(
          map["mutuallyExclusive"]!, map.path("mutuallyExclusive"), what: "a category name")
        {
          if !categories.insert(category.name).inserted {
            diagnostics.error(
              category.mark, category.path,
              "mutually exclusive category '\(category.name)' is listed twice at \(path)")
          } else {
            spec.exclusivity.append(category.name)
          }
        }
      } else if let condition = scripted(map, &draft) {
        spec.conditions.append(condition)
      }
    }
  }

  private func builtin(_ node: SourceNode, _ path: String) -> ConditionSpec.Check? {
    switch node.textValue {
    case "noFailedDependencies": return .noFailedDependencies
    case "noCancelledDependencies": return .noCancelledDependencies
    default:
      diagnostics.error(
        node.mark, path,
        "unknown condition \(node.found) at \(path); a condition is \(listing(Self.builtins)), "
          + "or a mapping like {name: loggedIn} or {mutuallyExclusive: Alert}",
        suggestion: node.textValue.flatMap {
          NearMiss.suggestion(for: $0, among: Self.builtins + ["mutuallyExclusive"])
        })
      return nil
    }
  }

  private func scripted(_ map: MapNode, _ draft: inout OperationDraft) -> ConditionSpec? {
    let d = diagnostics
    d.checkKeys(map, allowed: ConditionKey.named.map(\.rawValue))
    guard map.has("name") else {
      d.error(
        map.mark, map.path("name"),
        "missing 'name' at \(map.path): a condition needs a name, or 'mutuallyExclusive: CATEGORY'")
      return nil
    }
    let name = d.name(map["name"]!, map.path("name"), what: "a condition name")
    var condition = ConditionSpec(name: name?.name ?? "")
    let builtinCheck: ConditionSpec.Check? =
      switch name?.name {
      case "noFailedDependencies": .noFailedDependencies
      case "noCancelledDependencies": .noCancelledDependencies
      default: nil
      }
    var result = ConditionResult.satisfied
    if let node = map["result"] {
      if builtinCheck != nil {
        d.error(
          map.keyMark("result"), map.path("result"),
          "'\(name!.name)' decides its own result from the dependencies: remove 'result' at \(map.path)"
        )
      } else if let value = d.choice(
        node, map.path("result"), what: "result", among: [ConditionResult.satisfied, .failed])
      {
        result = value
      }
    }
    var error: String?
    if let node = map["error"] {
      if let text = node.textValue, !text.isEmpty, case .scalar = node {
        if d.oneLine(text, node, map.path("error"), what: "an error message") { error = text }
      } else {
        d.error(
          node.mark, map.path("error"),
          "expected an error message at \(map.path("error")), found \(node.found)")
      }
      if builtinCheck == nil && map["result"]?.textValue != "failed" {
        d.error(
          map.keyMark("error"), map.path("error"),
          "'error' is the message of a failed condition: add 'result: failed' at \(map.path)")
      }
      if builtinCheck != nil {
        d.error(
          map.keyMark("error"), map.path("error"),
          "'\(name!.name)' writes its own error: remove 'error' at \(map.path)")
      }
    }
    condition.check = builtinCheck ?? .scripted(result: result, error: error)
    if let node = map["evaluate"], let t = d.seconds(node, map.path("evaluate")) {
      condition.evaluate = t
    }
    if let node = map["negated"], let value = d.bool(node, map.path("negated")) {
      condition.negated = value
    }
    if let node = map["silent"], let value = d.bool(node, map.path("silent")) {
      condition.silent = value
    }
    if let node = map["dependency"],
      let ref = d.name(node, map.path("dependency"), what: "an operation name")
    {
      condition.dependency = ref.name
      draft.conditionDependencies.append(
        .init(ref: ref, condition: condition.name, silent: condition.silent))
    }
    return name == nil ? nil : condition
  }
}
