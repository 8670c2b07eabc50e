import OpsBoard
import OpsEngine
import OpsEvents

/// A hand-built photo-app scenario on three queues, with a bit of everything: cross-queue dependencies,
/// a condition that produces a dependency, mutual exclusivity, a failure, a timeout and scripted actions.
func photoRuntime() -> VirtualRuntime {
  let rt = VirtualRuntime()
  try! rt.addQueue(QueueSpec(name: "network", maxConcurrent: 2, qos: .utility))
  try! rt.addQueue(QueueSpec(name: "images", qos: .userInitiated))
  try! rt.addQueue(QueueSpec(name: "ui", maxConcurrent: 1, qos: .userInteractive))
  let ops: [(OperationSpec, String)] = [
    (OperationSpec(name: "download", work: WorkScript(duration: 4)), "network"),
    (OperationSpec(name: "prefetch", work: WorkScript(duration: 8, checkEvery: 0.5)), "network"),
    (OperationSpec(name: "fetchAvatar", priority: .high, work: WorkScript(duration: 3)), "network"),
    (
      OperationSpec(name: "decode", dependencies: ["download"], work: WorkScript(duration: 3)),
      "images"
    ),
    (
      OperationSpec(name: "resize", dependencies: ["decode"], work: WorkScript(duration: 4)),
      "images"
    ),
    (
      OperationSpec(name: "thumbnail", dependencies: ["decode"], work: WorkScript(duration: 2)),
      "images"
    ),
    (
      OperationSpec(
        name: "upload", dependencies: ["resize"],
        conditions: [ConditionSpec(name: "loggedIn", evaluate: 1, dependency: "login")],
        work: WorkScript(duration: 3)), "network"
    ),
    (
      OperationSpec(name: "render", dependencies: ["thumbnail"], work: WorkScript(duration: 2)),
      "ui"
    ),
    (OperationSpec(name: "banner", exclusivity: ["Alert"], work: WorkScript(duration: 3)), "ui"),
    (
      OperationSpec(name: "rateApp", exclusivity: ["Alert"], work: WorkScript(duration: 3)),
      "images"
    ),
    (
      OperationSpec(name: "analytics", work: WorkScript(duration: 2, fails: "quota exceeded")),
      "images"
    ),
    (
      OperationSpec(name: "purge", dependencies: ["analytics"], work: WorkScript(duration: 1)),
      "images"
    ),
    (
      OperationSpec(name: "warmCache", timeout: 5, work: WorkScript(duration: 9, checkEvery: 1)),
      "images"
    ),
  ]
  try! rt.addOperations(
    ops.map(\.0) + [OperationSpec(name: "login", work: WorkScript(duration: 2))])
  for (spec, queue) in ops { try! rt.enqueue(spec.name, on: queue) }
  rt.schedule(.cancel(operation: "prefetch"), at: 4)
  rt.schedule(.suspend(queue: "network"), at: 6)
  rt.schedule(.resume(queue: "network"), at: 10)
  return rt
}

let photoNotes = """
  A photo app at launch. network allows 2 at a time, images is unlimited, ui is serial.
  decode waits for download on another queue. upload needs the loggedIn condition, which produces
  login. banner and rateApp share the Alert exclusivity category. analytics fails; purge still runs.
  """

func photoSession(paused: Bool = true) -> BoardSession {
  BoardSession(
    title: "Photo app", notes: photoNotes, speed: 1, paused: paused, makeRuntime: photoRuntime)
}

/// The photo scenario paused at `time` with `op` selected.
func photo(at time: Double, selecting op: String) -> BoardSession {
  let s = photoSession()
  s.advance(by: time)
  s.select(operation: op)
  return s
}
