import OpsEngine
import OpsEvents

/// What a frame is drawn from: the model (the engine's story), the facts of playback, the key map
/// (what keys do) and the frame's settings. Panes read it and never change it.
struct RenderContext {
  let model: BoardModel
  let info: PlaybackInfo
  let notes: String
  /// The whole log so far (the model keeps only the newest entries).
  let fullLog: ArraySlice<LogEntry>
  let workSettings: [String: String]
  let keyMap: KeyMap
  let ascii: Bool
  /// The last key and its effect (the presenter layout shows it).
  var lastKey: KeyEffect? = nil
  /// The view under a moment's caption, whose keys work there too (help and the footer list them).
  var viewBeneath: BoardView? = nil
}
