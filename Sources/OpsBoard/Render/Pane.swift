/// A part of the screen that draws itself into the rectangle it is given, reading what it shows
/// from the frame's context, as ratatui's `Widget::render(area, buf)`. What only it keeps (a scroll
/// position) is a property the caller reads back. A pane draws nowhere outside its rectangle, so it
/// can be drawn alone onto a canvas of its own size (the pane tests do).
protocol Pane {
  mutating func render(_ area: Rect, _ frame: inout BoardRenderer)
}
