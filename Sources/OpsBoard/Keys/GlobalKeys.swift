/// Keys that work in every view (unless the view binds the key itself): the clock, time travel,
/// help, back and quit. The keys that open views are declared by the views (`ViewComponent.opener`).
enum GlobalKeys {
  static let bindings: [KeyBinding] = [
    KeyBinding(
      .pauseResume, [.char(" ")],
      "pause or play the virtual clock (in the past: play from where p says)",
      group: .clock, footer: "pause"),
    KeyBinding(.step, [.char(".")], "step one event (pauses first)", group: .clock, footer: "step"),
    KeyBinding(
      .slower, [.char("<")], "slower or faster: the next speed down or up", group: .clock,
      footer: "speed"),
    KeyBinding(.faster, [.char(">")], "faster: the next speed up", group: .clock, footer: "speed"),
    KeyBinding(
      .nextMoment, [.char("m")], "play on to the next teaching moment", group: .clock,
      footer: "next moment"),
    KeyBinding(
      .toggleQuiz, [.char("Q")],
      "quiz: predict before each step and moment", group: .clock),
    KeyBinding(
      .restart, [.char("r")],
      "restart from the beginning, reading the scenario again (asks y/n)", group: .clock),
    KeyBinding(
      .eventBack, [.key(.left)],
      "one event earlier or later (the header says ◀ past; at the present it ends)",
      group: .travel, footer: "travel"),
    KeyBinding(
      .eventForward, [.key(.right)], "one event later (at the present, time travel ends)",
      group: .travel, footer: "travel"),
    KeyBinding(
      .secondBack, [.char("[")], "one virtual second earlier or later", group: .travel),
    KeyBinding(.secondForward, [.char("]")], "one virtual second later", group: .travel),
    KeyBinding(
      .resumePoint, [.char("p")],
      "Space plays from the present, or from here (the future is played again, with the "
        + "keys sent before this moment)",
      group: .travel),
    KeyBinding(
      .back, [.key(.escape)], "back: close the view, or clear the filter", group: .views,
      footer: "back"),
    KeyBinding(
      .help, [.char("?"), .key(.function(1))], "this help (pauses the clock while open)",
      group: .other, footer: "help", pinned: true),
    KeyBinding(.redraw, [.key(.ctrl("l"))], "redraw the screen", group: .other),
    KeyBinding(
      .toggleTheme, [.char("T")], "high-contrast theme on or off (--theme)", group: .other),
    KeyBinding(.quit, [.char("q")], "quit", group: .other, footer: "quit", pinned: true),
  ]
}

/// Up, down, pages and ends: every view binds them, each to its own meaning.
enum MoveKeys {
  static func bindings(_ what: String, footer: String = "move") -> [KeyBinding] {
    [
      KeyBinding(
        .up, [.key(.up), .char("k")], "\(what) up or down", group: .select, footer: footer),
      KeyBinding(.down, [.key(.down), .char("j")], "\(what) down", group: .select, footer: footer),
      KeyBinding(.pageUp, [.key(.pageUp)], "a page up", group: .select),
      KeyBinding(.pageDown, [.key(.pageDown)], "a page down", group: .select),
      KeyBinding(.first, [.key(.home)], "to the top", group: .select),
      KeyBinding(.last, [.key(.end)], "to the end", group: .select),
      KeyBinding(.wheel, [.wheel], "scroll", group: .select),
    ]
  }
}
