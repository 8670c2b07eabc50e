import DequeModule
import OpsEvents

/// Which finished operations the live runtime's lints may forget before its retention does. The
/// lints read a finished operation only as the dependency of one that starts, and then only whether
/// it was cancelled or failed (`RanAfterFailedDependencyLint`; see `Lint`): one that succeeded and
/// that nothing unfinished needs (`EngineCore.canRetire`) reads the same once forgotten. Their
/// projection then holds the operations in flight and the failed or cancelled ones, not the 10,000
/// the standard retention keeps by name (docs/BENCHMARKS.md, "Session 13": 1M no-op operations at
/// limit 4 with the lints peaked at 56–61 MB before, 46–49 MB after).
struct LintsForgetting {
  /// Operations that finished but could not go then for a reason other than an unfinished
  /// dependent (a completion block to run, a group or a condition still waiting), oldest first.
  /// Rare: most operations go when they finish or when their last dependent does.
  private var line = Deque<Int>()

  /// Looks at each operation that finished in the step (`finished`) and at its dependencies, whose
  /// last unfinished dependent it may have been, and at up to 64 of those waiting in `line`. Each
  /// that succeeded and can go gets `RetireHint.forgottenByLints` and its name in `names`. One
  /// with unfinished dependents is looked at again when the last of them finishes; one held for
  /// another reason waits in `line`; a failed or cancelled one is left to the retention. Under the
  /// engine lock.
  mutating func step(finished: [Int], in core: EngineCore, names: inout [RetiredName]) {
    for id in finished {
      let op = core.ops[id]
      consider(op, in: core, names: &names)
      for d in op.dependencies {
        let dep = core.ops[d]
        if dep.state == .finished && dep.unfinishedDependents == 0 {
          consider(dep, in: core, names: &names)
        }
      }
    }
    for _ in 0..<min(line.count, 64) {
      consider(core.ops[line.removeFirst()], in: core, names: &names)
    }
  }

  /// Forgets the operation if it can go; one held for a reason other than its dependents joins
  /// `line` (it may join twice: the second look finds it forgotten).
  private mutating func consider(
    _ op: OperationRecord, in core: EngineCore, names: inout [RetiredName]
  ) {
    // Retired already (its name went to the lints then), forgotten, needed by the lints, or a
    // group (never retired: it would go round the line forever).
    guard op !== core.retiredPlaceholder, !core.retireHints[op.id].forgottenByLints,
      !op.cancelled, op.errors.isEmpty, op.kind != .group
    else { return }
    if core.canRetire(op.id) {
      core.retireHints[op.id].forgottenByLints = true
      names.append(RetiredName(op))
    } else if op.unfinishedDependents == 0 {
      line.append(op.id)
    }
  }
}
