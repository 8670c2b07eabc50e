import OpsEngine
import OpsEvents

/// Reads one entry of `actions:`: `{at: SECONDS, COMMAND: TARGET}`, the same commands the keys send.
struct ActionDecoder {
  static let commands = ActionKey.commands.map(\.rawValue)

  let diagnostics: Diagnostics

  func action(_ node: SourceNode, _ path: String) -> ActionDraft? {
    let d = diagnostics
    guard let map = d.mapping(node, path, expected: "an action like {at: 1.5, cancel: download}")
    else {
      return nil
    }
    d.checkKeys(map, allowed: ActionKey.names)
    let at = d.require(map, "at", what: "when, in scenario seconds").flatMap {
      d.seconds($0, map.path("at"))
    }
    let given = map.entries.map(\.key).filter(Self.commands.contains)
    guard given.count == 1, let key = given.first, let command = ActionKey(rawValue: key)
    else {
      if given.isEmpty {
        d.error(
          map.mark, path, "missing a command at \(path); expected one of \(listing(Self.commands))")
      } else {
        d.error(
          map.keyMark(given[1]), map.path(given[1]),
          "an action has one command, found \(listing(given.map { "'\($0)'" }, conjunction: "and")) at \(path)"
        )
      }
      return nil
    }
    let value = map[key]!
    let valuePath = map.path(key)
    let queue = { d.name(value, valuePath, what: "a queue name") }
    let draft: (Command, ActionDraft.Target)
    switch command {
    case .at: return nil  // not a command: `given` holds commands only
    case .cancel:
      guard let ref = d.name(value, valuePath, what: "an operation name") else { return nil }
      draft = (.cancel(operation: ref.name), .operation(ref))
    case .maxConcurrent:
      guard let (ref, limit) = maxConcurrent(value, valuePath) else { return nil }
      draft = (.setMaxConcurrent(queue: ref.name, value: limit), .queue(ref))
    case .suspend:
      guard let ref = queue() else { return nil }
      draft = (.suspend(queue: ref.name), .queue(ref))
    case .resume:
      guard let ref = queue() else { return nil }
      draft = (.resume(queue: ref.name), .queue(ref))
    case .cancelAll:
      guard let ref = queue() else { return nil }
      draft = (.cancelAll(queue: ref.name), .queue(ref))
    }
    guard let at else { return nil }
    return ActionDraft(at: at, command: draft.0, target: draft.1)
  }

  private func maxConcurrent(_ node: SourceNode, _ path: String) -> (NameRef, Int?)? {
    let d = diagnostics
    guard let map = d.mapping(node, path, expected: "a mapping like {queue: network, value: 3}")
    else {
      return nil
    }
    d.checkKeys(map, allowed: ["queue", "value"])
    let ref = d.require(map, "queue", what: "the queue's name").flatMap {
      d.name($0, map.path("queue"), what: "a queue name")
    }
    let limit = d.require(map, "value", what: "an integer >= 0 or \"default\"").flatMap {
      d.limit($0, map.path("value"))
    }
    guard let ref, let limit else { return nil }
    return (ref, limit)
  }
}
