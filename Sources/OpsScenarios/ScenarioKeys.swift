/// Every key of a scenario file (its top level, queues, operations, conditions, actions and
/// moments), declared once: the decoders' lists of known keys (and their "unknown key"
/// suggestions) come from these enums, and
/// ScenarioKeyTests checks each key against the format doc (Scenarios/README.md), a run of the
/// engine, `opsview code` and `opsview verify`, so a key one of them ignores fails a test.
protocol ScenarioKeySet: RawRepresentable<String>, CaseIterable {
  var reach: KeyReach { get }
}

extension ScenarioKeySet {
  /// The keys in declaration order, as the loader lists them in its messages.
  static var names: [String] { allCases.map(\.rawValue) }
}

/// Where a key's meaning goes beyond the loader.
struct KeyReach: Sendable {
  /// Why setting it leaves the engine's trace as it was; nil when it changes the trace.
  var notInEngine: String?
  /// Why Foundation's OperationQueue has no equivalent: `opsview code` says so in a comment and
  /// `opsview verify` leaves what uses it unchecked. Nil when the program does what the key says.
  var noFoundationEquivalent: String?

  static let everywhere = KeyReach()
}

enum TopLevelKey: String, ScenarioKeySet {
  case scenario, title, notes, speed, queues, operations, actions, moments

  var reach: KeyReach {
    switch self {
    case .scenario: KeyReach(notInEngine: "the scenario's id names it; it runs the same")
    case .title: KeyReach(notInEngine: "a title for `opsview list` and the board's header")
    case .notes:
      KeyReach(
        notInEngine: "the lesson, shown in the board's notes pane",
        noFoundationEquivalent: "the lesson is shown in opsview's notes pane")
    case .speed:
      KeyReach(
        notInEngine: "the board's playback speed; the engine's clock is the same",
        noFoundationEquivalent:
          "the board's playback speed; here the `scale` argument sets the pace")
    case .moments:
      KeyReach(
        notInEngine: "captions where the board pauses; the run is the same",
        noFoundationEquivalent: "teaching captions are opsview's board only")
    case .queues, .operations, .actions: .everywhere
    }
  }
}

enum QueueKey: String, ScenarioKeySet {
  case name, maxConcurrent, suspended, qos

  var reach: KeyReach { .everywhere }
}

enum OperationKey: String, ScenarioKeySet {
  case name, queue, work, priority, qos, addedAt, dependencies, conditions, cancellation
  case checkEvery, fails, finishes, produces, children, blocks, timeout, produced, barrier
  case completion
  case async

  var reach: KeyReach {
    switch self {
    case .conditions:
      KeyReach(noFoundationEquivalent: "conditions and mutual exclusivity are ProcedureKit's")
    case .children:
      KeyReach(
        noFoundationEquivalent: "a group (ProcedureKit's GroupProcedure) waits for its children")
    case .name, .queue, .work, .priority, .qos, .addedAt, .dependencies, .cancellation, .checkEvery,
      .fails, .finishes, .produces, .blocks, .timeout, .produced, .barrier, .completion, .async:
      .everywhere
    }
  }
}

/// The keys of a condition written as a mapping: a named condition's keys, or `mutuallyExclusive`
/// alone.
enum ConditionKey: String, ScenarioKeySet {
  case name, dependency, evaluate, result, error, negated, silent
  case mutuallyExclusive

  /// The keys a named (scripted or built-in) condition may have.
  static let named = allCases.filter { $0 != .mutuallyExclusive }

  var reach: KeyReach {
    switch self {
    case .mutuallyExclusive:
      KeyReach(noFoundationEquivalent: "mutual exclusivity is ProcedureKit's")
    case .name, .dependency, .evaluate, .result, .error, .negated, .silent:
      KeyReach(noFoundationEquivalent: "conditions are ProcedureKit's")
    }
  }
}

/// The keys of an action: when, and one command of those the board's keys send.
enum ActionKey: String, ScenarioKeySet {
  case at
  case cancel, suspend, resume, maxConcurrent, cancelAll

  /// The keys that name a command (all but `at`).
  static let commands = allCases.filter { $0 != .at }

  var reach: KeyReach { .everywhere }
}

/// The keys of a moment: one trigger, the caption, and the claims it states.
enum MomentKey: String, ScenarioKeySet {
  case at, when, action, caption, expect

  static let triggers: [MomentKey] = [.at, .when, .action]

  var reach: KeyReach {
    KeyReach(
      notInEngine: "captions where the board pauses; the run is the same",
      noFoundationEquivalent: "teaching captions are opsview's board only")
  }
}
