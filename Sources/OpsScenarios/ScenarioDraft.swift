import OpsEngine
import OpsEvents

/// What the first pass reads from the file, with the places of every name, before cross-references
/// are checked.
struct ScenarioDraft {
  var id: String
  var title: String?
  var notes = ""
  var speed = 1.0
  var queues: [QueueDraft] = []
  var operations: [OperationDraft] = []
  var actions: [ActionDraft] = []
  var moments: [MomentDraft] = []
}

struct QueueDraft {
  var name: NameRef
  var spec: QueueSpec
}

struct OperationDraft {
  var path: String
  var name: NameRef
  /// The `queue:` key as written, if given.
  var queue: NameRef?
  var addedAt = 0.0
  /// The place of an `addedAt` written in the file (it has no effect on produced operations).
  var addedAtMark: SourceMark?
  var produced = false
  var producedMark: SourceMark?
  var dependencies: [NameRef] = []
  var conditionDependencies: [ConditionDependency] = []
  var productions: [Production] = []
  var children: [NameRef] = []
  /// Names and dependencies are filled in once they are known to be valid.
  var spec: OperationSpec

  struct ConditionDependency {
    var ref: NameRef
    var condition: String
    /// A silent condition does not add its dependency.
    var silent: Bool
  }

  struct Production {
    var at: Double
    var atMark: SourceMark?
    var atPath: String
    var ref: NameRef
  }
}

struct ActionDraft {
  enum Target {
    case operation(NameRef)
    case queue(NameRef)
  }
  var at: Double
  var command: Command
  var target: Target
}
