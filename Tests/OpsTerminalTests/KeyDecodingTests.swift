import OpsCells
import OpsTerminal
import Testing

/// ncurses key codes (curses.h, fixed across ncurses 5/6), written out so the mapping is checked
/// against the real numbers rather than against itself.
private enum Code {
  static let down: Int32 = 0o402
  static let up: Int32 = 0o403
  static let left: Int32 = 0o404
  static let right: Int32 = 0o405
  static let home: Int32 = 0o406
  static let backspace: Int32 = 0o407
  static let f0: Int32 = 0o410
  static let delete: Int32 = 0o512
  static let pageDown: Int32 = 0o522
  static let pageUp: Int32 = 0o523
  static let enter: Int32 = 0o527
  static let keypadUpperLeft: Int32 = 0o534
  static let keypadLowerLeft: Int32 = 0o537
  static let backTab: Int32 = 0o541
  static let end: Int32 = 0o550
  static let resize: Int32 = 0o632
}

@Suite struct KeyDecodingTests {
  @Test(arguments: [
    (Code.up, KeyInput.up), (Code.down, .down), (Code.left, .left), (Code.right, .right),
    (Code.pageUp, .pageUp), (Code.pageDown, .pageDown), (Code.home, .home), (Code.end, .end),
    (Code.keypadUpperLeft, .home), (Code.keypadLowerLeft, .end),
    (Code.enter, .enter), (Code.backTab, .backTab), (Code.backspace, .backspace),
    (Code.resize, .resize),
  ])
  func functionKeys(code: Int32, expected: KeyInput) {
    #expect(KeyDecoder.decode(.keyCode(code)) == expected)
  }

  @Test func functionKeysF1ToF12() {
    for n in 1...12 {
      #expect(KeyDecoder.decode(.keyCode(Code.f0 + Int32(n))) == .function(n))
    }
    #expect(KeyDecoder.decode(.keyCode(Code.f0)) == nil)
    #expect(KeyDecoder.decode(.keyCode(Code.f0 + 13)) == nil)
  }

  @Test func keysWithoutANameAreDropped() {
    #expect(KeyDecoder.decode(.keyCode(Code.delete)) == nil)
    #expect(KeyDecoder.decode(.keyCode(0o777)) == nil)
  }

  @Test(arguments: [
    (UInt32(13), KeyInput.enter), (10, .enter), (27, .escape), (9, .tab), (127, .backspace),
    (8, .backspace),
  ])
  func controlCharactersWithNames(value: UInt32, expected: KeyInput) {
    #expect(KeyDecoder.decode(.character(value)) == expected)
  }

  @Test func ctrlLetters() {
    #expect(KeyDecoder.decode(.character(1)) == .ctrl("a"))
    #expect(KeyDecoder.decode(.character(3)) == .ctrl("c"))
    #expect(KeyDecoder.decode(.character(12)) == .ctrl("l"))
    #expect(KeyDecoder.decode(.character(19)) == .ctrl("s"))
    #expect(KeyDecoder.decode(.character(26)) == .ctrl("z"))
    // Every code 1…26 except Backspace (8), Tab (9), LF (10) and CR (13) is a Ctrl letter.
    let ctrl = (1...26).filter {
      if case .ctrl = KeyDecoder.decode(.character(UInt32($0))) { return true }
      return false
    }
    #expect(ctrl == (1...26).filter { ![8, 9, 10, 13].contains($0) })
  }

  @Test func printableCharacters() {
    #expect(KeyDecoder.decode(.character(0x71)) == .character("q"))
    #expect(KeyDecoder.decode(.character(0x20)) == .character(" "))
    #expect(KeyDecoder.decode(.character(0x3F)) == .character("?"))
    #expect(KeyDecoder.decode(.character(0xE9)) == .character("é"))
    #expect(KeyDecoder.decode(.character(0x6F22)) == .character("漢"))
  }

  @Test func otherControlsAndInvalidCodePointsAreDropped() {
    for value: UInt32 in [0, 28, 29, 30, 31, 0x80, 0x9B, 0x9F, 0xD800, 0x110000] {
      #expect(KeyDecoder.decode(.character(value)) == nil, "\(value)")
    }
  }

  @Test func mouse() {
    let masks = MouseMasks(press: 0b0001, click: 0b0010, wheelUp: 0b0100, wheelDown: 0b1000)
    #expect(
      KeyDecoder.decodeMouse(x: 5, y: 3, buttons: 0b0001, masks: masks) == .mouseClick(x: 5, y: 3))
    #expect(
      KeyDecoder.decodeMouse(x: 5, y: 3, buttons: 0b0010, masks: masks) == .mouseClick(x: 5, y: 3))
    #expect(KeyDecoder.decodeMouse(x: 0, y: 0, buttons: 0b0100, masks: masks) == .scrollUp)
    #expect(KeyDecoder.decodeMouse(x: 0, y: 0, buttons: 0b1000, masks: masks) == .scrollDown)
    // A release (or any other button) is not an input.
    #expect(KeyDecoder.decodeMouse(x: 0, y: 0, buttons: 0b1_0000, masks: masks) == nil)
  }

  @Test func ncursesMouseMasksAreDistinct() {
    let masks = MouseMasks.ncurses
    let all = [masks.press, masks.click, masks.wheelUp, masks.wheelDown]
    #expect(all.allSatisfy { $0 != 0 })
    #expect(Set(all).count == 4)
    #expect(masks.all == masks.press | masks.click | masks.wheelUp | masks.wheelDown)
  }
}
