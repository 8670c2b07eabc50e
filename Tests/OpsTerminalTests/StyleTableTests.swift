import OpsCells
import OpsTerminal
import Testing

private let bits = AttributeBits(bold: 1 << 0, reverse: 1 << 1, dim: 1 << 2, underline: 1 << 3)
private let color8 = ColorSupport(colors: 8, pairs: 64, defaultColors: true)
private let color256 = ColorSupport(colors: 256, pairs: 65_536, defaultColors: true)

@Suite struct StyleTableTests {
  @Test func monochromeDrawsAttributesOnly() {
    var table = StyleTable(support: nil, bits: bits)
    let plain = table.style(
      foreground: .red, background: .default, attributes: [.bold, .underline])
    #expect(plain.style == CursesStyle(pair: 0, attributes: bits.bold | bits.underline))
    #expect(plain.define == nil)
  }

  @Test func monochromeKeepsWhatColourMeant() {
    var table = StyleTable(support: nil, bits: bits)
    // Gray text is secondary: dim. A coloured background is a highlight: reverse video.
    #expect(
      table.style(foreground: .gray, background: .default, attributes: []).style.attributes
        == bits.dim)
    #expect(
      table.style(foreground: .default, background: .blue, attributes: []).style.attributes
        == bits.reverse)
    // Already reversed stays reversed (reverse twice would cancel the highlight).
    #expect(
      table.style(foreground: .default, background: .blue, attributes: .reverse).style.attributes
        == bits.reverse)
  }

  @Test func defaultColoursUsePairZero() {
    var table = StyleTable(support: color256, bits: bits)
    let result = table.style(foreground: .default, background: .default, attributes: .reverse)
    #expect(result.style == CursesStyle(pair: 0, attributes: bits.reverse))
    #expect(result.define == nil)
  }

  @Test func pairsAreAllocatedOnFirstUseAndReused() {
    var table = StyleTable(support: color256, bits: bits)
    let red = table.style(foreground: .red, background: .default, attributes: [])
    #expect(red.define == PairDefinition(pair: 1, foreground: 1, background: -1))
    let green = table.style(foreground: .green, background: .black, attributes: .bold)
    #expect(green.define == PairDefinition(pair: 2, foreground: 2, background: 0))
    #expect(green.style == CursesStyle(pair: 2, attributes: bits.bold))
    let redAgain = table.style(foreground: .red, background: .default, attributes: .underline)
    #expect(redAgain.define == nil)
    #expect(redAgain.style == CursesStyle(pair: 1, attributes: bits.underline))
  }

  @Test func grayIsBrightBlackWithSixteenColoursElseDimWhite() {
    var rich = StyleTable(support: color256, bits: bits)
    let gray = rich.style(foreground: .gray, background: .default, attributes: [])
    #expect(gray.define?.foreground == 8)
    #expect(gray.style.attributes == 0)

    var poor = StyleTable(support: color8, bits: bits)
    let dimWhite = poor.style(foreground: .gray, background: .default, attributes: [])
    #expect(dimWhite.define?.foreground == 7)
    #expect(dimWhite.style.attributes == bits.dim)
    // The same colours as white: one pair serves both.
    let white = poor.style(foreground: .white, background: .default, attributes: [])
    #expect(white.define == nil)
    #expect(white.style.pair == dimWhite.style.pair)
  }

  @Test func withoutDefaultColoursDefaultIsWhiteOnBlack() {
    let support = ColorSupport(colors: 8, pairs: 64, defaultColors: false)
    #expect(StyleTable.colorNumber(.default, background: false, support: support).number == 7)
    #expect(StyleTable.colorNumber(.default, background: true, support: support).number == 0)
    var table = StyleTable(support: support, bits: bits)
    #expect(table.style(foreground: .white, background: .black, attributes: []).style.pair == 0)
    #expect(table.style(foreground: .default, background: .default, attributes: []).style.pair == 0)
  }

  @Test func runningOutOfPairsFallsBackWithoutDefiningMore() {
    let tiny = ColorSupport(colors: 8, pairs: 3, defaultColors: true)
    var table = StyleTable(support: tiny, bits: bits)
    #expect(table.style(foreground: .red, background: .default, attributes: []).define?.pair == 1)
    #expect(table.style(foreground: .green, background: .default, attributes: []).define?.pair == 2)
    // No pair 3: red on blue keeps its red foreground on the default background.
    let redOnBlue = table.style(foreground: .red, background: .blue, attributes: [])
    #expect(redOnBlue.define == nil)
    #expect(redOnBlue.style.pair == 1)
    // Nothing close: the default pair.
    #expect(table.style(foreground: .cyan, background: .yellow, attributes: []).style.pair == 0)
  }

  @Test func everyCellColourHasADistinctNumberWithSixteenColours() {
    let numbers = CellColor.allCases.filter { $0 != .default }.map {
      StyleTable.colorNumber($0, background: false, support: color256).number
    }
    #expect(Set(numbers).count == numbers.count)
  }

  @Test func ncursesAttributeBitsAreDistinct() {
    let real = AttributeBits.ncurses
    let all = [real.bold, real.reverse, real.dim, real.underline]
    #expect(all.allSatisfy { $0 != 0 })
    #expect(Set(all).count == 4)
  }
}

@Suite struct ColorPolicyTests {
  @Test func noColorTurnsColourOffWhenNonEmpty() {
    #expect(ColorPolicy.useColor(option: nil, noColor: nil, terminalHasColors: true))
    #expect(!ColorPolicy.useColor(option: nil, noColor: "1", terminalHasColors: true))
    #expect(!ColorPolicy.useColor(option: nil, noColor: "0", terminalHasColors: true))
    #expect(ColorPolicy.useColor(option: nil, noColor: "", terminalHasColors: true))
  }

  @Test func anExplicitOptionWinsButCannotAddColours() {
    #expect(ColorPolicy.useColor(option: true, noColor: "1", terminalHasColors: true))
    #expect(!ColorPolicy.useColor(option: false, noColor: nil, terminalHasColors: true))
    #expect(!ColorPolicy.useColor(option: true, noColor: nil, terminalHasColors: false))
    #expect(!ColorPolicy.useColor(option: nil, noColor: nil, terminalHasColors: false))
  }
}
