/// `play --watch FILE`: the board asks every so often whether the file changed and, if it did, starts
/// again from it. A file that does not load leaves the last good version playing and shows why on the
/// board until a save fixes it.
struct FileWatch {
  /// Real seconds between looks.
  let interval: Double
  /// True when the file differs from the last look (the caller reads it; the board has no files).
  let changed: () -> Bool
  var sinceLastLook = 0.0
}

extension BoardSession {
  /// Starts watching: `changed` is asked every `interval` real seconds, paused or not.
  public func watch(every interval: Double = 0.25, changed: @escaping () -> Bool) {
    watcher = FileWatch(interval: interval, changed: changed)
  }

  /// The load error on screen, if the file last read did not load.
  public var loadError: String? { ui.loadError }

  /// Called from every tick, before the clock moves.
  func pollWatch(elapsed: Double) {
    guard var w = watcher else { return }
    w.sinceLastLook += elapsed
    let due = w.sinceLastLook >= w.interval - 1e-9
    if due { w.sinceLastLook = 0 }
    watcher = w
    if due && w.changed() { reloadWatched() }
  }

  /// Reads the file again: a new start from it, or its problems on the board.
  func reloadWatched() {
    if let problem = restartFromScenario() {
      ui.loadError = problem
      ui.status = StatusMessage(
        "the file does not load: the last good version keeps playing", .rejected)
    } else {
      ui.status = StatusMessage("the file changed: started again from it", .applied)
    }
  }
}
