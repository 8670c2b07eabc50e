import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

/// Keys on a board over a live program: the board claims no effect before the program's events
/// show it, and a confirmation applies to what it named.
@Suite struct LiveCommandTests {
  /// A running program as the board sees it: events arrive when the test says, commands are only
  /// sent (the program answers later, with events).
  final class FakeLiveSource: EventSource {
    private var handlers: [(Event) -> Void] = []
    private var events: [Event] = []
    var sent: [Command] = []
    var named: [(queue: String, operations: [String])] = []

    func subscribe(_ handler: @escaping (Event) -> Void) {
      for e in events { handler(e) }
      handlers.append(handler)
    }
    func push(_ kind: EventKind) {
      let e = Event(seq: events.count + 1, time: Double(events.count) * 0.01, kind: kind)
      events.append(e)
      for h in handlers { h(e) }
    }
    var label: String? { "live" }
    var now: Double { events.last?.time ?? 0 }
    var isIdle: Bool { false }
    func advance(by seconds: Double) {}
    func step() -> Bool { true }
    var commandRefusal: String?
    var missedEvents = false
    func perform(_ command: Command) -> CommandOutcome {
      sent.append(command)
      return .applied
    }
    func schedule(_ command: Command, at time: Double) {}
    var isLive: Bool { true }
    func cancel(named operations: [String], in queue: String) -> CommandOutcome {
      named.append((queue, operations))
      return .applied
    }

    /// A queue and `names` added to it (pending), as a probe reports them.
    func add(queue: String, _ names: [String]) {
      push(.queueAdded(queue: queue, maxConcurrent: 1, suspended: false, qos: .default))
      for n in names {
        push(
          .operationAdded(
            operation: n, queue: queue, priority: .normal, qos: .default, kind: .plain,
            dependencies: [], conditions: [], exclusivity: [], work: nil))
        push(.state(operation: n, from: .initialized, to: .pending, cause: .added(queue: queue)))
      }
    }

    func finish(_ n: String) {
      for (from, to) in [
        (OperationState.pending, OperationState.ready), (.ready, .executing),
        (.executing, .finishing), (.finishing, .finished),
      ] {
        push(.state(operation: n, from: from, to: to, cause: .sampled))
      }
    }
  }

  private func board() -> (BoardSession, FakeLiveSource) {
    let source = FakeLiveSource()
    let s = BoardSession(title: "live", notes: "", makeSource: { source })
    return (s, source)
  }

  @Test func aCancelThatArrivesTooLateIsNeverShownAsDone() {
    let (s, source) = board()
    source.add(queue: "uploads", ["a"])
    s.advance(by: 0.1)
    s.select(operation: "a")
    // The board still shows it executing; the program finishes it before the cancel arrives.
    source.push(.state(operation: "a", from: .pending, to: .ready, cause: .sampled))
    source.push(.state(operation: "a", from: .ready, to: .executing, cause: .sampled))
    s.advance(by: 0.1)
    press(s, .character("c"))
    #expect(source.sent == [.cancel(operation: "a")])
    // Before: "✓ cancelled a: …" at once, whatever the program did.
    #expect(s.status?.kind == .info)
    #expect(s.status?.text.contains("sent to the program") == true, "\(s.status?.text ?? "")")
    source.push(.command(command: "cancel", target: "a", value: nil, source: .key))
    source.push(.cancelTooLate(operation: "a"))
    s.advance(by: 0.1)
    #expect(s.status?.kind == .rejected)
    #expect(s.status?.text.contains("too late") == true, "\(s.status?.text ?? "")")
  }

  @Test func aCancelTheProgramCarriedOutIsShownWhenItsEventArrives() {
    let (s, source) = board()
    source.add(queue: "uploads", ["a"])
    s.advance(by: 0.1)
    s.select(operation: "a")
    press(s, .character("c"))
    source.push(.cancelled(operation: "a", errors: [], cause: .command))
    s.advance(by: 0.1)
    #expect(s.status?.kind == .applied)
    #expect(s.status?.text.contains("cancelled a") == true, "\(s.status?.text ?? "")")
  }

  @Test func aConfirmationAppliesToWhatItNamedOrAsksAgain() {
    let (s, source) = board()
    source.add(queue: "uploads", ["u1", "u2", "u3"])
    s.advance(by: 0.1)
    s.select(queue: "uploads")
    press(s, .character("C"))
    #expect(s.isConfirming)
    // Before the answer, that batch finishes and the next one comes.
    for n in ["u1", "u2", "u3"] { source.finish(n) }
    source.add(queue: "uploads", ["v1", "v2"])
    s.advance(by: 0.1)
    press(s, .character("y"))
    // Before: cancelAll went out and cancelled the next batch. Now: asked again, nothing sent.
    #expect(source.sent.isEmpty && source.named.isEmpty)
    #expect(s.isConfirming)
    press(s, .character("y"))
    #expect(source.named.count == 1)
    #expect(source.named.first?.queue == "uploads")
    #expect(source.named.first?.operations == ["v1", "v2"])
  }

  /// The presenter's last-key line waits for the program's answer as the status line does.
  @Test func thePresentersLastKeyLineWaitsForTheAnswer() {
    let (s, source) = board()
    source.add(queue: "uploads", ["a"])
    s.advance(by: 0.1)
    s.present()
    s.select(operation: "a")
    press(s, .character("c"))
    // Before: "c — a cancelled" at once.
    #expect(s.lastKeyEffect?.contains("waiting for its answer") == true, "\(s.lastKeyEffect ?? "")")
    source.push(.command(command: "cancel", target: "a", value: nil, source: .key))
    source.push(.cancelTooLate(operation: "a"))
    s.advance(by: 0.1)
    #expect(s.lastKeyEffect?.contains("too late") == true, "\(s.lastKeyEffect ?? "")")
  }

  /// `.` with nothing new from the program shows nothing and says so; before, it waited for the
  /// program's next event with every key ignored.
  @Test func aStepWithNothingNewReturnsAtOnce() {
    let (s, source) = board()
    source.add(queue: "uploads", ["a"])
    s.advance(by: 0.1)
    let shown = s.log.count
    press(s, .character("."))
    #expect(s.log.count == shown)
    #expect(s.status?.text.hasPrefix("nothing new from the program yet") == true)
  }

  /// The keys of a scenario's own (restart, speed, replaying the future, the quiz) are refused
  /// with why; a cancel says nothing of what the program's operation does next.
  @Test func aScenariosOwnKeysAreRefusedForARunningProgram() {
    let (s, source) = board()
    source.add(queue: "uploads", ["a"])
    s.advance(by: 0.1)
    for key: Character in ["r", ">", "Q", "m"] {
      press(s, .character(key))
      #expect(s.status?.kind == .rejected, "\(key): \(s.status?.text ?? "")")
      #expect(!s.isConfirming)
    }
    #expect(!s.quizEnabled)
    s.select(operation: "a")
    press(s, .character("c"))
    source.push(.cancelled(operation: "a", errors: [], cause: .command))
    s.advance(by: 0.1)
    #expect(
      s.status?.text == "cancelled a: its isCancelled is set; what it does next is the program's")
  }

  /// A read-only program refuses C at once; before, the board asked y/n first.
  @Test func aReadOnlyProgramRefusesCancelAllBeforeAsking() {
    let (s, source) = board()
    source.commandRefusal =
      "read-only: the program did not enable control when it started its probe"
    source.add(queue: "uploads", ["a"])
    s.advance(by: 0.1)
    s.select(queue: "uploads")
    press(s, .character("C"))
    #expect(!s.isConfirming)
    #expect(s.status?.text.hasPrefix("read-only") == true, "\(s.status?.text ?? "")")
  }

  /// A viewer that caught up after missing events does not call an unseen dependency "not added
  /// yet", and says its history's times are when it learnt of each step.
  @Test func aViewerThatMissedEventsSaysSoInTheDetail() {
    let (s, source) = board()
    source.missedEvents = true
    source.push(.queueAdded(queue: "q", maxConcurrent: 1, suspended: false, qos: .default))
    source.push(
      .operationAdded(
        operation: "decode", queue: "q", priority: .normal, qos: .default, kind: .plain,
        dependencies: ["download"], conditions: [], exclusivity: [], work: nil))
    source.push(.state(operation: "decode", from: .initialized, to: .pending, cause: .sampled))
    s.advance(by: 0.1)
    s.select(operation: "decode")
    press(s, .enter)
    let text = screenText(s, 120, 40)
    #expect(
      text.contains("? download  not seen: the events before the catch-up did not arrive"),
      "\(text)")
    #expect(text.contains("events were missed: a step is shown when it was learnt of"), "\(text)")
    #expect(!text.contains("not added to a queue yet"))
    // No line of Swift is made up for a running program's commands.
    #expect(text.contains("a running program's code is its own"), "\(text)")
  }

  @Test func theLogMakesUpNoSwiftForAProgramsCommands() {
    let (s, source) = board()
    source.add(queue: "uploads", ["a"])
    source.push(.command(command: "cancel", target: "a", value: nil, source: .key))
    s.advance(by: 0.1)
    let text = screenText(s, 120, 40)
    #expect(text.contains("key: cancel"), "\(text)")
    #expect(!text.contains(".cancel()"), "\(text)")
  }

  /// The footer offers no key of a scenario's own on a running program's board.
  @Test func theFooterOffersNoScenarioKeys() {
    let (s, source) = board()
    source.add(queue: "uploads", ["a"])
    s.advance(by: 0.1)
    s.present()
    let footer = screenLines(s, 160, 40).last ?? ""
    #expect(!footer.contains("next moment") && !footer.contains("restart"), "\(footer)")
    #expect(footer.contains("cancel"), "\(footer)")
    // Nor does the help.
    press(s, .character("?"))
    let help = screenText(s, 160, 60)
    #expect(help.contains("cancel"), "\(help)")
    #expect(!help.contains("next moment") && !help.contains("quiz"), "\(help)")
  }
}
