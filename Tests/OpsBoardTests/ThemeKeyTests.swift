import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

@Suite("The high-contrast theme has a key")
struct ThemeKeyTests {
  @Test func tSwitchesTheThemeAndSaysSo() {
    let s = builtInSession("tour")
    s.advance(by: 3)
    func dimCells() -> Int {
      let g = s.render(width: 80, height: 24, ascii: false)
      var n = 0
      for y in 0..<g.height {
        for x in 0..<g.width where g[x, y].attributes.contains(.dim) { n += 1 }
      }
      return n
    }
    #expect(dimCells() > 0)
    press(s, .character("T"))
    #expect(s.theme == .highContrast)
    #expect(s.status?.text.contains("high-contrast") == true, "\(s.status?.text ?? "")")
    #expect(dimCells() == 0)
    press(s, .character("T"))
    #expect(s.theme == .standard)
    #expect(dimCells() > 0)
  }
}
