import Foundation
import OpsEngine
import OpsEvents
import Yams

/// Reads one entry of `moments:`: exactly one trigger (`at`, `when` or `action`), a `caption`, and
/// the facts the caption states (`expect`, see `ClaimDecoder`).
struct MomentDecoder {
  static let triggers = MomentKey.triggers.map(\.rawValue)

  let diagnostics: Diagnostics

  func moment(_ node: SourceNode, _ path: String) -> MomentDraft? {
    let d = diagnostics
    guard
      let map = d.mapping(
        node, path, expected: "a moment like {at: 2, caption: \"download starts\"}")
    else { return nil }
    d.checkKeys(map, allowed: MomentKey.names)
    let caption = d.require(map, "caption", what: "the sentence the board shows").flatMap {
      captionText($0, map.path("caption"))
    }
    let given = map.entries.map(\.key).filter(Self.triggers.contains)
    guard given.count == 1, let key = given.first, let triggerKey = MomentKey(rawValue: key)
    else {
      if given.isEmpty {
        d.error(
          map.mark, path,
          "missing a trigger at \(path); expected one of 'at' (seconds), 'when' "
            + "({operation: NAME, to: STATE}) or 'action' (an index into actions)")
      } else {
        d.error(
          map.keyMark(given[1]), map.path(given[1]),
          "a moment has one trigger, found \(listing(given.map { "'\($0)'" }, conjunction: "and")) at \(path)"
        )
      }
      return nil
    }
    let value = map[key]!
    let valuePath = map.path(key)
    let trigger: MomentDraft.Trigger
    switch triggerKey {
    case .at:
      guard let at = d.seconds(value, valuePath) else { return nil }
      trigger = .time(at)
    case .action:
      guard let index = value.intValue, index >= 0 else {
        d.error(
          value.mark, valuePath,
          "expected an index into actions (0 is the first) at \(valuePath), found \(value.found)")
        return nil
      }
      trigger = .action(index, value.mark, valuePath)
    case .when:
      guard let (ref, state) = when(value, valuePath) else { return nil }
      trigger = .state(ref, state)
    case .caption, .expect: return nil  // not triggers: `given` holds triggers only
    }
    let claims = map["expect"].map {
      ClaimDecoder(diagnostics: d).claims($0, map.path("expect"))
    }
    guard let caption else { return nil }
    return MomentDraft(trigger: trigger, caption: caption, claims: claims ?? [])
  }

  private func captionText(_ node: SourceNode, _ path: String) -> String? {
    guard let text = diagnostics.text(node, path) else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty {
      diagnostics.error(node.mark, path, "expected a caption (a sentence or two) at \(path)")
      return nil
    }
    return trimmed
  }

  private func when(_ node: SourceNode, _ path: String) -> (NameRef, OperationState)? {
    let d = diagnostics
    guard
      let map = d.mapping(node, path, expected: "a mapping like {operation: resize, to: ready}")
    else { return nil }
    d.checkKeys(map, allowed: ["operation", "to"])
    let ref = d.require(map, "operation", what: "the operation's name").flatMap {
      d.name($0, map.path("operation"), what: "an operation name")
    }
    let state = d.require(map, "to", what: "the state it reaches").flatMap {
      d.choice($0, map.path("to"), what: "state", among: Array(OperationState.allCases.dropFirst()))
    }
    guard let ref, let state else { return nil }
    return (ref, state)
  }
}

/// A moment as read from the file, before its names and indices are checked.
struct MomentDraft {
  enum Trigger {
    case time(Double)
    case state(NameRef, OperationState)
    case action(Int, SourceMark?, String)
  }
  var trigger: Trigger
  var caption: String
  var claims: [ClaimDraft] = []
}
