/// What the board needs, and that it waits meanwhile: the clock is held and keys other than quit
/// and redraw do nothing (`waiting`: the last such key, named). Drawn over the whole screen.
struct TooSmallPane: Pane {
  var waiting: KeyInput?

  func render(_ r: Rect, _ frame: inout BoardRenderer) {
    let width = r.width
    let height = r.height
    let message =
      "opsview needs at least \(BoardLayout.minimumWidth)×\(BoardLayout.minimumHeight) (now \(width)×\(height))"
    let quit = frame.keyMap.keyLabel(.quit, ascii: frame.ascii) ?? "q"
    let key = waiting.map { "\(KeyPattern.quoted($0)) did nothing: " } ?? ""
    let hold = "\(key)the clock and keys wait for a larger window; \(quit) quits"
    guard width > 0, height > 0 else { return }
    // Wrap onto as many lines as the width needs, centred.
    func wrapped(_ text: String) -> [String] {
      var lines: [String] = []
      var rest = Substring(text)
      while !rest.isEmpty {
        var cut = rest.prefix(width)
        if cut.count < rest.count, let space = cut.lastIndex(of: " ") {
          cut = rest[rest.startIndex..<space]
        }
        lines.append(String(cut))
        rest = rest[cut.endIndex...].drop { $0 == " " }
      }
      return lines
    }
    let first = wrapped(message)
    // The second sentence where there is a row for it under a blank one.
    let second = wrapped(hold)
    let lines = first.count + 1 + second.count <= height ? first + [""] + second : first
    let top = max(0, (height - lines.count) / 2)
    for (i, line) in lines.enumerated() where top + i < height {
      let n = frame.ascii ? Canvas.transliterate(line).count : line.count
      frame.canvas.put(
        line, x: r.x + max(0, (width - n) / 2), y: r.y + top + i,
        style: i < first.count ? .bold : .plain)
    }
  }
}
