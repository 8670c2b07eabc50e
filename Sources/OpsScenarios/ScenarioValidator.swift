import OpsEngine
import OpsEvents

/// The second pass: names that must exist, duplicates, who adds which operation, and cycles. Builds
/// the scenario when nothing is wrong.
struct ScenarioValidator {
  let diagnostics: Diagnostics

  func validate(_ draft: ScenarioDraft, source: String) -> Scenario? {
    var queues = draft.queues
    if queues.isEmpty {
      queues = [
        QueueDraft(name: NameRef(name: "default", path: ""), spec: QueueSpec(name: "default"))
      ]
    }
    let queueNames = Set(firstPositions(queues.map(\.name), what: "queue").keys)
    let ops = draft.operations
    let index = firstPositions(ops.map(\.name), what: "operation")
    // Prepared on the first suggestion only: a valid file never pays for it.
    var operationIndex: NearMiss.Index?
    func suggestOperation(_ name: String) -> String? {
      let index = operationIndex ?? NearMiss.Index(ops.map(\.name.name))
      operationIndex = index
      return index.suggestion(for: name)
    }

    func checkOperation(_ ref: NameRef, role: String) -> Int? {
      if let i = index[ref.name] { return i }
      diagnostics.error(
        ref.mark, ref.path, "unknown operation '\(ref.name)' at \(ref.path)\(role)",
        suggestion: suggestOperation(ref.name))
      return nil
    }

    // Who adds each operation: its group, a producer, or a condition's dependency.
    var parents: [Int: (group: Int, ref: NameRef)] = [:]
    var adders: [[Adder]] = Array(repeating: [], count: ops.count)
    // Indices, not `for op in ops`: each copy of a draft retains all of its fields (50,000 of them).
    for i in ops.indices {
      if let q = ops[i].queue, !queueNames.contains(q.name) {
        diagnostics.error(
          q.mark, q.path, "unknown queue '\(q.name)' at \(q.path)",
          suggestion: NearMiss.suggestion(for: q.name, among: queues.map(\.name.name)))
      }
      for dep in ops[i].dependencies {
        guard let d = checkOperation(dep, role: "") else { continue }
        if d == i {
          diagnostics.error(dep.mark, dep.path, "operation '\(dep.name)' cannot depend on itself")
        }
      }
      for cd in ops[i].conditionDependencies {
        guard let d = checkOperation(cd.ref, role: " (the condition '\(cd.condition)' adds it)")
        else {
          continue
        }
        if d == i {
          diagnostics.error(
            cd.ref.mark, cd.ref.path, "operation '\(cd.ref.name)' cannot depend on itself")
        } else if !ops[d].produced {
          notProduced(
            ops[d], by: cd.ref, "the condition '\(cd.condition)' of '\(ops[i].name.name)' adds it")
        } else {
          adders[d].append(Adder(from: i, intoGroup: false, silent: cd.silent))
        }
      }
      for p in ops[i].productions {
        guard let d = checkOperation(p.ref, role: "") else { continue }
        if d == i {
          diagnostics.error(
            p.ref.mark, p.ref.path, "operation '\(p.ref.name)' cannot produce itself")
        } else if !ops[d].produced {
          notProduced(ops[d], by: p.ref, "'\(ops[i].name.name)' produces it")
        } else {
          adders[d].append(Adder(from: i, intoGroup: !ops[i].children.isEmpty, silent: false))
        }
        checkProductionTime(p, of: ops[i])
      }
      for child in ops[i].children {
        guard let c = checkOperation(child, role: "") else { continue }
        if c == i {
          diagnostics.error(
            child.mark, child.path, "operation '\(child.name)' cannot be its own child")
        } else if let other = parents[c] {
          diagnostics.error(
            child.mark, child.path,
            "'\(child.name)' is already a child of '\(ops[other.group].name.name)'"
              + "\(other.ref.mark.map { " (line \($0.line))" } ?? ""): an operation belongs to one group"
          )
        } else if ops[c].produced {
          diagnostics.error(
            ops[c].producedMark, Path.key(ops[c].path, "produced"),
            "'\(child.name)' is a child of '\(ops[i].name.name)', which adds it: it cannot also be "
              + "'produced: true'")
        } else {
          parents[c] = (i, child)
          adders[c].append(Adder(from: i, intoGroup: true, silent: false))
        }
      }
    }
    for i in ops.indices where ops[i].produced && adders[i].isEmpty {
      let op = ops[i]
      diagnostics.error(
        op.producedMark, Path.key(op.path, "produced"),
        "'\(op.name.name)' is declared 'produced: true' but nothing produces it: name it in a "
          + "'produces' entry or as a condition's 'dependency'")
    }
    checkInnerQueueNames(queues, ops)
    let innerQueues = ops.filter { !$0.children.isEmpty }.map {
      GroupQueueName.inner(of: $0.name.name)
    }
    let innerQueueSet = Set(innerQueues)
    let actions = draft.actions.filter {
      checkAction(
        $0, queues: queueNames, innerQueues: (innerQueues, innerQueueSet), index: index,
        suggestOperation: suggestOperation)
    }

    let categories = Set(ops.flatMap(\.spec.exclusivity))
    let moments = draft.moments.compactMap { draftMoment -> ScenarioMoment? in
      guard
        var moment = checkMoment(
          draftMoment, actionCount: draft.actions.count, ops: ops, index: index)
      else { return nil }
      moment.claims = draftMoment.claims.filter {
        checkClaim(
          $0, queues: queueNames.union(innerQueueSet), categories: categories, ops: ops,
          index: index)
      }.map {
        ScenarioClaim($0.claim, line: $0.mark?.line, column: $0.mark?.column, path: $0.path)
      }
      return moment
    }

    let firstQueue = queues[0].spec.name
    let placement = Placement(ops: ops, adders: adders, parents: parents, firstQueue: firstQueue)
    checkPlacement(placement, ops)
    guard diagnostics.isEmpty, index.count == ops.count else { return nil }

    var scenario = Scenario(
      id: draft.id, title: draft.title ?? draft.id, notes: draft.notes, speed: draft.speed,
      queues: queues.map(\.spec), source: source)
    // Indices, not `enumerated()`, and the draft's fields read in place: a copy of a draft retains
    // every field of it.
    scenario.operations = ops.indices.map { i in
      var spec = ops[i].spec
      spec.dependencies = ops[i].dependencies.map(\.name)
      if !ops[i].children.isEmpty { spec.children = ops[i].children.map(\.name) }
      if !ops[i].productions.isEmpty {
        spec.work.produces = ops[i].productions.map { .init(at: $0.at, operation: $0.ref.name) }
      }
      return ScenarioOperation(
        spec: spec, queue: placement.queue[i] ?? firstQueue, addedAt: ops[i].addedAt,
        produced: ops[i].produced)
    }
    scenario.actions = actions.map { ScenarioAction(at: $0.at, command: $0.command) }
    scenario.moments = moments
    scenario.warnings =
      DependencyCycles.find(in: scenario.operations, index: index).map(cycleWarning)
      + GroupDeadlocks.find(in: scenario.operations)
    return scenario
  }

  /// `dependency cycle among a, b and c (a → b → c → a): …`, shortened for long cycles.
  private func cycleWarning(_ cycle: [String]) -> String {
    let closed = cycle + [cycle[0]]
    let members: String
    let path: String
    if cycle.count <= 6 {
      members = listing(cycle, conjunction: "and")
      path = closed.joined(separator: " → ")
    } else {
      members = "\(cycle.count) operations"
      path = (closed.prefix(3) + ["…"] + closed.suffix(2)).joined(separator: " → ")
    }
    return
      "dependency cycle among \(members) (\(path)): none of them can start unless one is cancelled"
  }

  /// Each name's position in `refs`, its first when repeated; every repetition is reported. One hash
  /// a name when all are distinct (the usual case), as this runs over every operation.
  private func firstPositions(_ refs: [NameRef], what: String) -> [String: Int] {
    var position = [String: Int](minimumCapacity: refs.count)
    var repeated: [NameRef] = []
    for i in refs.indices where position.updateValue(i, forKey: refs[i].name) != nil {
      repeated.append(refs[i])
    }
    guard !repeated.isEmpty else { return position }
    // Rare: the updates above kept the last place of a repeated name; put back each first one.
    for i in refs.indices.reversed() { position[refs[i].name] = i }
    for ref in repeated {
      let line = position[ref.name].flatMap { refs[$0].mark?.line } ?? 0
      diagnostics.error(
        ref.mark, ref.path,
        "duplicate \(what) name '\(ref.name)' at \(ref.path)"
          + (line > 0 ? "; the first is at line \(line)" : ""))
    }
    return position
  }

  private func notProduced(_ target: OperationDraft, by ref: NameRef, _ reason: String) {
    diagnostics.error(
      ref.mark, ref.path,
      "'\(ref.name)' must be declared with 'produced: true' at \(target.path), because \(reason); "
        + "otherwise it would also be added at its addedAt")
  }

  /// A production after the producer's work is over never happens.
  private func checkProductionTime(_ p: OperationDraft.Production, of op: OperationDraft) {
    let work = op.spec.work
    guard op.children.isEmpty, work.finishes, p.at > work.effectiveDuration else { return }
    diagnostics.error(
      p.atMark, p.atPath,
      "'\(op.name.name)' finishes after \(formatSeconds(work.effectiveDuration))s of work, so it "
        + "cannot produce '\(p.ref.name)' at \(formatSeconds(p.at))s (\(p.atPath))")
  }

  /// A group's inner queue is named `GROUP.children`; a declared queue must not take that name.
  private func checkInnerQueueNames(_ queues: [QueueDraft], _ ops: [OperationDraft]) {
    let groups = Set(ops.filter { !$0.children.isEmpty }.map(\.name.name))
    for q in queues {
      guard let group = GroupQueueName.group(owning: q.name.name) else { continue }
      if groups.contains(group) {
        diagnostics.error(
          q.name.mark, q.name.path,
          "queue name '\(q.name.name)' is taken by the inner queue of the group '\(group)'")
      }
    }
  }

  /// `innerQueues`: the groups' inner queues, which actions may name (they exist once the group has
  /// started).
  private func checkAction(
    _ action: ActionDraft, queues: Set<String>, innerQueues: ([String], Set<String>),
    index: [String: Int],
    suggestOperation: (String) -> String?
  ) -> Bool {
    switch action.target {
    case .operation(let ref):
      guard index[ref.name] == nil else { return true }
      diagnostics.error(
        ref.mark, ref.path, "unknown operation '\(ref.name)' at \(ref.path)",
        suggestion: suggestOperation(ref.name))
    case .queue(let ref):
      guard !queues.contains(ref.name), !innerQueues.1.contains(ref.name) else { return true }
      diagnostics.error(
        ref.mark, ref.path, "unknown queue '\(ref.name)' at \(ref.path)",
        suggestion: NearMiss.suggestion(for: ref.name, among: queues.sorted() + innerQueues.0))
    }
    return false
  }

  /// A moment's operation must exist and its action index must name an action.
  private func checkMoment(
    _ moment: MomentDraft, actionCount: Int, ops: [OperationDraft], index: [String: Int]
  ) -> ScenarioMoment? {
    let trigger: ScenarioMoment.Trigger
    switch moment.trigger {
    case .time(let at): trigger = .time(at)
    case .state(let ref, let state):
      guard index[ref.name] != nil else {
        diagnostics.error(
          ref.mark, ref.path, "unknown operation '\(ref.name)' at \(ref.path)",
          suggestion: NearMiss.suggestion(for: ref.name, among: ops.map(\.name.name)))
        return nil
      }
      trigger = .state(operation: ref.name, to: state)
    case .action(let i, let mark, let path):
      guard i < actionCount else {
        let have =
          actionCount == 0
          ? "the scenario has no actions"
          : "the scenario has \(actionCount) action\(actionCount == 1 ? "" : "s") (0 to \(actionCount - 1))"
        diagnostics.error(mark, path, "no action \(i) at \(path): \(have)")
        return nil
      }
      trigger = .action(index: i)
    }
    return ScenarioMoment(trigger: trigger, caption: moment.caption)
  }

  /// A claim names operations, queues and lock categories of the scenario.
  private func checkClaim(
    _ claim: ClaimDraft, queues: Set<String>, categories: Set<String>, ops: [OperationDraft],
    index: [String: Int]
  ) -> Bool {
    var ok = true
    func unknown(_ ref: NameRef, _ what: String, among: [String]) {
      ok = false
      diagnostics.error(
        ref.mark, ref.path, "unknown \(what) '\(ref.name)' at \(ref.path)",
        suggestion: NearMiss.suggestion(for: ref.name, among: among))
    }
    if let subject = claim.subject {
      switch claim.claim {
      case .queueSuspended, .queueLimit, .queueExecuting, .queueReady, .starts:
        if !queues.contains(subject.name) { unknown(subject, "queue", among: queues.sorted()) }
      case .operationState, .operationCancelled, .operationFailed, .operationCancelledAt,
        .operationReadyAt,
        .operationStartsAt, .operationFinishesAt:
        if index[subject.name] == nil {
          unknown(subject, "operation", among: ops.map(\.name.name))
        }
      case .lockHolder, .lockWaiting:
        if !categories.contains(subject.name) {
          unknown(subject, "exclusivity category", among: categories.sorted())
        }
      }
    }
    for ref in claim.operations where index[ref.name] == nil {
      unknown(ref, "operation", among: ops.map(\.name.name))
    }
    return ok
  }

  /// Produced operations and children are added by others: an own `addedAt` or a different `queue`
  /// would be silently ignored, and one whose adders are never added themselves never runs.
  private func checkPlacement(_ placement: Placement, _ ops: [OperationDraft]) {
    for i in ops.indices where ops[i].produced || placement.isChild(i) {
      let op = ops[i]
      if let mark = op.addedAtMark {
        diagnostics.error(
          mark, Path.key(op.path, "addedAt"),
          "'\(op.name.name)' is added when \(placement.isChild(i) ? "its group starts" : "it is produced"): "
            + "remove 'addedAt' at \(op.path)")
      }
      let possible = placement.possibleQueues[i]
      if let q = op.queue, !possible.isEmpty, !possible.contains(q.name) {
        let onto = listing(possible.sorted().map { "'\($0)'" })
        let reason =
          if let group = placement.parents[i] {
            "is a child of '\(ops[group.group].name.name)' and runs on its inner queue \(onto), not on"
          } else {
            "is added to \(onto) by what produces it, not to"
          }
        diagnostics.error(
          q.mark, q.path,
          "'\(op.name.name)' \(reason) '\(q.name)': remove 'queue' at \(op.path)")
      }
      if placement.queue[i] == nil, adderCount(placement, i) > 0 {
        diagnostics.error(
          op.name.mark, op.name.path,
          "'\(op.name.name)' can never be added to a queue: everything that would add it is never "
            + "added itself")
      }
    }
  }

  private func adderCount(_ placement: Placement, _ i: Int) -> Int {
    placement.adders[i].filter { !$0.silent }.count
  }
}

/// Something that adds an operation: a group (its child), a producer, or a condition's owner.
struct Adder {
  var from: Int
  /// Into the adder's inner queue (a group's child or a group's production).
  var intoGroup: Bool
  /// A silent condition names its dependency but does not add it.
  var silent: Bool
}
