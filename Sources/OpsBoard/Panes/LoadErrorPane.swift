/// The loader's problems in a box at the bottom of its rectangle, over whatever view is shown.
struct LoadErrorPane: Pane {
  var problem: String

  func render(_ r: Rect, _ frame: inout BoardRenderer) {
    let width = min(r.width, 100)
    let lines = problem.split(separator: "\n").flatMap {
      TextWrap.wrap(String($0), width: width - 4)
    }
    let shown = Array(lines.prefix(max(1, r.height / 2 - 3)))
    let height = shown.count + 3
    let box = Rect(x: r.x, y: r.maxY - height, width: width, height: height)
    frame.canvas.box(box, title: "The scenario file does not load", style: .bad)
    for (i, line) in shown.enumerated() {
      frame.canvas.put(line, x: box.x + 2, y: box.y + 1 + i, width: width - 4, style: .bad)
    }
    frame.canvas.put(
      "The last good version keeps playing: fix the file and save, or press r.", x: box.x + 2,
      y: box.maxY - 2, width: width - 4, style: .bold)
  }
}
