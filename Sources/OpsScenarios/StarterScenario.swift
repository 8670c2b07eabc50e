/// The commented starter file `opsview new NAME` writes: every section with one example, so a new
/// lesson starts from something that plays.
public enum StarterScenario {
  public static func text(id: String) -> String {
    """
    # \(id): a new opsview scenario. Play it:  opsview play \(id).yaml
    # Check it:  opsview check \(id).yaml   Every key: Scenarios/README.md in opsview's sources.
    # Times are scenario seconds on a virtual clock: the same file always plays the same way.
    scenario: \(id)
    title: "\(id): one line for the board's header"
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
}
