import Foundation
import Yams

/// Yams checks mapping keys for duplicates by hashing them, and an alias-built key can stand for an
/// exponentially large tree ("billion laughs"), which would hang the loader. Scenario keys are always
/// plain names, so a key that is an alias, a list or a mapping is an error anyway; this finds the
/// first one before Yams composes the text itself.
///
/// It lets Yams compose a copy of the text in which every `*` is a character the text does not
/// hold: aliases become plain scalars of the same place (libyaml counts columns in characters), so
/// nothing is shared and hashing is linear, and a key that starts with that character was an
/// alias (a plain scalar cannot start with `*`). A scan of the text alone missed keys written in
/// ways it did not foresee (the fuzzer found `[*a, ? *b]`, an explicit key inside a flow list).
enum ComplexKeyGuard {
  enum Outcome {
    /// The first key that is not a scalar, or was an alias (1-based place).
    case complexKey(line: Int, column: Int)
    /// No such key. `root`: the text's own tree when the text has no `*` (nothing was replaced,
    /// so the copy's tree is the text's).
    case clear(root: Yams.Node??)
  }

  /// Composes the copy. A YAML error in it is thrown when the text has no `*` (it is the text's own
  /// error then), or when the text has an anchor too: the text itself could hold an alias key the
  /// copy's error hides, so it is not composed, and the copy's error (at the same place, in the
  /// same words) is reported. Otherwise a copy that does not compose is `.clear(root: nil)`: with no
  /// anchor no alias can stand for anything, and the text's own error is reported.
  static func check(_ text: String) throws -> Outcome {
    guard text.utf8.contains(UInt8(ascii: "*")) else {
      let root = try Yams.compose(yaml: text, .basic)
      if let place = root.flatMap({ firstComplexKey(in: $0, marker: nil) }) {
        return .complexKey(line: place.line, column: place.column)
      }
      return .clear(root: .some(root))
    }
    let marker = Self.marker(absentFrom: text)
    var copy = text.replacingOccurrences(of: "*", with: String(Character(marker)))
    // A duplicate key stops Yams before the keys after it are seen, where the alias key that must
    // be reported instead may be: the repeated key is renamed in the copy (a few times at most).
    var duplicate: YamlError?
    for _ in 0..<8 {
      let root: Yams.Node?
      do {
        root = try Yams.compose(yaml: copy, .basic)
      } catch let error as YamlError {
        duplicate = error
        if case .duplicatedKeysInMapping(let keys, let context) = error {
          if keys.contains(where: { $0.unicodeScalars.first == marker }) {
            return .complexKey(line: context.mark.line, column: context.mark.column)
          }
          if keys.count == 1,
            let place = ScenarioLoader.repeatedKey(
              keys[0], after: (context.mark.line, context.mark.column), in: copy),
            let renamed = renaming(at: place, in: copy, to: marker)
          {
            copy = renamed
            continue
          }
        }
        if text.utf8.contains(UInt8(ascii: "&")) { throw error }
        return .clear(root: nil)
      }
      if let place = root.flatMap({ firstComplexKey(in: $0, marker: marker) }) {
        return .complexKey(line: place.line, column: place.column)
      }
      return .clear(root: nil)
    }
    // Still a duplicate: the text's own compose reports it, unless an anchor could make that hang.
    if let duplicate, text.utf8.contains(UInt8(ascii: "&")) { throw duplicate }
    return .clear(root: nil)
  }

  /// `text` with the character at `place` (1-based, in characters as libyaml counts them on a line
  /// ended by a newline) replaced by `marker`'s successor: a new key, no longer a duplicate.
  private static func renaming(
    at place: (line: Int, column: Int), in text: String, to marker: Unicode.Scalar
  ) -> String? {
    var scalars = Array(text.unicodeScalars)
    var line = 1
    var column = 1
    for i in scalars.indices {
      if line == place.line && column == place.column {
        guard let renamed = Unicode.Scalar(marker.value + 1) else { return nil }
        scalars[i] = renamed
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
      }
      if scalars[i] == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return nil
  }

  /// The place of the first key that is a list, a mapping or (starting with `marker`, plain) an
  /// alias, in document order.
  static func find(in text: String) -> (line: Int, column: Int)? {
    if case .complexKey(let line, let column) = try? check(text) { return (line, column) }
    return nil
  }

  private static func firstComplexKey(in node: Yams.Node, marker: Unicode.Scalar?)
    -> (line: Int, column: Int)?
  {
    switch node {
    case .scalar, .alias:
      return nil
    case .sequence(let items):
      for item in items {
        if let place = firstComplexKey(in: item, marker: marker) { return place }
      }
      return nil
    case .mapping(let pairs):
      for (key, value) in pairs {
        switch key {
        case .scalar(let s):
          if let marker, s.style == .plain, s.string.unicodeScalars.first == marker {
            return place(of: key)
          }
        default:
          return place(of: key)
        }
        if let place = firstComplexKey(in: value, marker: marker) { return place }
      }
      return nil
    }
  }

  private static func place(of node: Yams.Node) -> (line: Int, column: Int) {
    (node.mark?.line ?? 1, node.mark?.column ?? 1)
  }

  /// A character libyaml reads as part of a plain scalar, that `text` does not hold: from the
  /// private use area, which text files do not use.
  static func marker(absentFrom text: String) -> Unicode.Scalar {
    var used = Set<Unicode.Scalar>()
    for scalar in text.unicodeScalars where (0xE000...0xF8FF).contains(scalar.value) {
      used.insert(scalar)
    }
    var value: UInt32 = 0xE000
    while used.contains(Unicode.Scalar(value)!) { value += 1 }
    return Unicode.Scalar(value)!
  }
}
