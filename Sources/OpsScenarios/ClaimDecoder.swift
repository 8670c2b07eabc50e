import OpsEngine
import OpsEvents

/// Reads a moment's `expect:`: the facts its caption states, one mapping per subject (a queue, an
/// operation, a lock) or `starts` for the instant. Names are checked by the validator; whether the
/// facts hold is checked by running the scenario (`Scenario.momentProblems`).
struct ClaimDecoder {
  /// A subject and the facts that may be claimed of it.
  static let facts: [String: [String]] = [
    "queue": ["suspended", "limit", "executing", "ready", "starts"],
    "operation": [
      "state", "cancelled", "failed", "cancelledAt", "readyAt", "startsAt", "finishesAt",
    ],
    "lock": ["holder", "waiting"],
  ]
  static let subjects = ["queue", "operation", "lock"]

  let diagnostics: Diagnostics

  func claims(_ node: SourceNode, _ path: String) -> [ClaimDraft] {
    guard
      let items = diagnostics.sequence(
        node, path, expected: "a list of claims like [{queue: network, suspended: true}]")
    else { return [] }
    return items.enumerated().flatMap { i, item in claims(of: item, Path.index(path, i)) }
  }

  private func claims(of node: SourceNode, _ path: String) -> [ClaimDraft] {
    let d = diagnostics
    guard
      let map = d.mapping(
        node, path,
        expected: "a claim like {queue: network, suspended: true}, {operation: decode, state: "
          + "ready}, {lock: Alert, holder: banner} or {starts: [decode]}")
    else { return [] }
    let given = map.entries.map(\.key).filter(Self.subjects.contains)
    guard given.count <= 1 else {
      d.error(
        map.keyMark(given[1]), map.path(given[1]),
        "a claim has one subject, found \(listing(given.map { "'\($0)'" }, conjunction: "and")) at \(path)"
      )
      return []
    }
    let subject = given.first
    let allowed = subject.map { [$0] + Self.facts[$0]! } ?? ["starts"]
    d.checkKeys(map, allowed: allowed)
    let subjectRef = subject.flatMap { key in
      map[key].flatMap { d.name($0, map.path(key), what: "a \(key) name") }
    }
    if subject != nil, subjectRef == nil { return [] }
    var drafts: [ClaimDraft] = []
    for entry in map.entries where entry.key != subject && allowed.contains(entry.key) {
      let at = map.path(entry.key)
      let value = entry.value
      let name = subjectRef?.name ?? ""
      var claim: MomentClaim?
      var refs: [NameRef] = []
      switch (subject, entry.key) {
      case ("queue", "suspended"):
        claim = d.bool(value, at).map { .queueSuspended(queue: name, $0) }
      case ("queue", "limit"):
        claim = d.limit(value, at).map { .queueLimit(queue: name, $0) }
      case ("queue", "executing"), ("queue", "ready"), ("queue", "starts"), (nil, "starts"),
        ("lock", "waiting"):
        guard let list = d.names(value, in: map, entry.key, what: "operation name") else {
          continue
        }
        refs = list
        let ops = list.map(\.name)
        claim =
          switch entry.key {
          case "executing": .queueExecuting(queue: name, ops)
          case "ready": .queueReady(queue: name, ops)
          case "waiting": .lockWaiting(category: name, ops)
          default: .starts(queue: subject == nil ? nil : name, ops)
          }
      case ("operation", "state"):
        claim = d.choice(value, at, what: "state", OperationState.self).map {
          .operationState(operation: name, $0)
        }
      case ("operation", "cancelled"):
        claim = d.bool(value, at).map { .operationCancelled(operation: name, $0) }
      case ("operation", "failed"):
        claim = d.bool(value, at).map { .operationFailed(operation: name, $0) }
      case ("operation", "cancelledAt"), ("operation", "readyAt"), ("operation", "startsAt"),
        ("operation", "finishesAt"):
        let time: Double?? =
          value.textValue == "never" ? .some(nil) : d.seconds(value, at).map { $0 }
        guard let time else { continue }
        claim =
          switch entry.key {
          case "cancelledAt": .operationCancelledAt(operation: name, time)
          case "readyAt": .operationReadyAt(operation: name, time)
          case "startsAt": .operationStartsAt(operation: name, time)
          default: .operationFinishesAt(operation: name, time)
          }
      case ("lock", "holder"):
        guard let ref = d.name(value, at, what: "an operation name, or none") else { continue }
        if ref.name != "none" { refs = [ref] }
        claim = .lockHolder(category: name, ref.name == "none" ? nil : ref.name)
      default: continue
      }
      guard let claim else { continue }
      drafts.append(
        ClaimDraft(
          claim: claim, mark: value.mark ?? entry.keyMark, path: at, subject: subjectRef,
          operations: refs))
    }
    if !map.entries.contains(where: { $0.key != subject }) {
      let facts = subject.flatMap { Self.facts[$0] } ?? ["starts"]
      d.error(
        map.mark, path, "a claim with nothing claimed at \(path); expected \(listing(facts))")
    }
    return drafts
  }
}

/// A claim as read from the file, with what it names, before the names are checked.
struct ClaimDraft {
  var claim: MomentClaim
  var mark: SourceMark?
  var path: String
  /// The queue, operation or lock category it is about.
  var subject: NameRef?
  /// The operations it names in its facts.
  var operations: [NameRef]
}
