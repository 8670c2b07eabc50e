/// The commented starter file `opsview new NAME` writes: every section with one example, so a new
/// lesson starts from something that plays.
public enum StarterScenario {
  /// `id` is a name `TextPolicy` accepts (one line, no control characters); quoted where YAML
  /// would read it otherwise (`: #`, quotes, a leading `-`), so the starter always checks.
  public static func text(id: String) -> String {
    let scalar = yamlString(id)
    let title = yamlString("\(id): one line for the board's header")
    return """
      # \(id): a new opsview scenario. Play it:  opsview play \(id).yaml
      # Check it:  opsview check \(id).yaml   Every key: Scenarios/README.md in opsview's sources.
      # Times are scenario seconds on a virtual clock: the same file always plays the same way.
      scenario: \(scalar)
      title: \(title)
      notes: |
        The lesson in a few sentences, shown by `n` on the board. `code` spans are drawn bold.
      speed: 1                          # virtual seconds per real second

      queues:
        - {name: network, maxConcurrent: 2}   # 1 is serial; leave it out for no limit
        - {name: cpu}

      operations:
        - {name: download, queue: network, work: 3}
        - {name: decode, queue: cpu, work: 2, dependencies: [download]}   # waits across queues
        - {name: prefetch, queue: network, work: 6, checkEvery: 0.5}      # checks isCancelled
        - {name: later, queue: network, work: 1, addedAt: 2}

      actions:                          # the same commands the board's keys send
        - {at: 1, suspend: network}
        - {at: 4, resume: network}
        - {at: 4.5, cancel: prefetch}

      moments:                          # the board pauses here and shows the caption; m continues
        - action: 0
          caption: "`network` is suspended: what runs keeps running, nothing new starts."
          expect:                       # what the caption states; opsview check plays it to see
            - {queue: network, suspended: true, executing: [download, prefetch]}
            - {operation: later, startsAt: 4}
        - when: {operation: decode, to: ready}
          caption: "`download` finished, so `decode` is ready on another queue."
          expect:
            - {operation: download, state: finished}
            - {operation: decode, state: ready}
      """ + "\n"
  }

  /// A YAML scalar for `text`: plain when it is letters, digits and `_.-` (not first), else a
  /// double-quoted JSON string, which YAML reads the same.
  static func yamlString(_ text: String) -> String {
    let plain =
      !text.isEmpty && text.first.map { $0.isLetter || $0.isNumber || $0 == "_" } == true
      && text.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "_" || $0 == "." || $0 == "-"
      }
    if plain { return text }
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
