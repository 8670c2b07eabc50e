import Dispatch
import OpsEvents

// The engine's host: what the core asks of the runtime within a step (the clock, starting work,
// evaluating conditions, timers), and what work tells the engine when it returns.

extension LiveRuntime {
  // MARK: - From work

  func produce(from id: Int, _ name: String) -> Bool {
    withCore { core in
      let producer = core.ops[id]
      guard producer.state == .executing, let target = core.operation(named: name),
        !target.isEnqueued
      else {
        return false
      }
      core.produce(producer, name)
      return true
    }
  }

  /// The work of an operation returned (or an async one called finish). Called on a worker of QoS
  /// `level`, it returns the next job for that worker to run.
  func workReturned(_ id: Int, errors: [String], level: Int? = nil) -> LiveJob? {
    beginStep()
    // Released after the step, outside the lock.
    let context = workTable.returned(id)
    // Only a cancelled operation's work can have noticed a cancel (the flag is set only then):
    // the others skip the flag lock.
    let noticed = core.ops[id].cancelled ? context?.noticedCancelAt : nil
    core.workFinished(
      core.ops[id],
      noticed.map { errors.isEmpty ? .noticedCancel(at: $0) : .returned(errors: errors) }
        ?? .returned(errors: errors))
    return withExtendedLifetime(context) { endStep(handOff: level) }
  }

  /// The QoS index of an operation's work: its own QoS, else its queue's.
  func level(of op: OperationRecord) -> Int {
    let qos =
      op.spec.qos != .default ? op.spec.qos : op.queue.map { core.queues[$0].qos } ?? .default
    return qos.index
  }
}

extension LiveRuntime: EngineHost {
  // Called by the core under the lock: nothing here calls back into the core synchronously.

  var now: Double { stepTime }

  func execute(_ op: OperationRecord) {
    let id = op.id
    // A group without work: the children are the work.
    if op.spec.kind == .group && workTable.startGroupWithoutWork(id) { return }
    let ctx = WorkContext(runtime: self, operation: op.name, id: id)
    let work = workTable.start(id, context: ctx) ?? .none
    // It waits for a worker from the end of the step on (a finishing worker may take it over then).
    startedJobs.append(LiveJob(id: id, level: level(of: op), work: work, context: ctx))
  }

  func evaluate(_ op: OperationRecord, condition index: Int) {
    let id = op.id
    let condition = op.spec.conditions[index]
    let queue = workQueues[level(of: op)]
    if let closure = conditionClosures[id]?[condition.name] {
      launches.append(
        .async(queue) {
          let (result, error) = closure()
          self.withCore {
            $0.conditionEvaluated($0.ops[id], index: index, result: result, error: error)
          }
        })
      return
    }
    // Built-in checks are decided by the core; a scripted one without a closure gives its script.
    var result = ConditionResult.satisfied
    var error: String?
    if case .scripted(let r, let e) = condition.check { (result, error) = (r, e) }
    let deliver: @Sendable () -> Void = { [result, error] in
      self.withCore {
        $0.conditionEvaluated($0.ops[id], index: index, result: result, error: error)
      }
    }
    schedule(after: condition.evaluate, deliver)
  }

  func cancelExecuting(_ op: OperationRecord) {
    workTable.context(of: op.id)?.requestCancel()
  }

  /// The engine finished the operation without its work: the work, still running, is told to stop
  /// as cooperative work is.
  func abandonExecuting(_ op: OperationRecord) { cancelExecuting(op) }

  func schedule(after seconds: Double, _ timer: EngineTimer) {
    schedule(after: seconds) { self.withCore { $0.fire(timer) } }
  }

  func schedule(after seconds: Double, _ body: @escaping @Sendable () -> Void) {
    launches.append(
      seconds > 0 ? .after(internalQueue, seconds, body) : .async(internalQueue, body))
  }
}
