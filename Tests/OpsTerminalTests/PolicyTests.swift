import OpsTerminal
import Testing

@Suite struct FramePacingTests {
  @Test func nothingAnimatingBlocksForInput() {
    #expect(FramePacing.timeoutMilliseconds(nextFrameDelay: nil, sinceLastTick: 0) == -1)
    #expect(FramePacing.timeoutMilliseconds(nextFrameDelay: .nan, sinceLastTick: 0) == -1)
  }

  @Test func framesAreCappedAtThirtyASecond() {
    #expect(FramePacing.timeoutMilliseconds(nextFrameDelay: 0, sinceLastTick: 0) == 34)
    #expect(FramePacing.timeoutMilliseconds(nextFrameDelay: 0.001, sinceLastTick: 0) == 34)
    #expect(FramePacing.timeoutMilliseconds(nextFrameDelay: -1, sinceLastTick: 0) == 34)
    // Time already spent since the last tick counts towards the cap.
    #expect(FramePacing.timeoutMilliseconds(nextFrameDelay: 0, sinceLastTick: 0.02) == 14)
    #expect(FramePacing.timeoutMilliseconds(nextFrameDelay: 0, sinceLastTick: 1) == 0)
  }

  @Test func longerDelaysAreWaitedInFull() {
    #expect(FramePacing.timeoutMilliseconds(nextFrameDelay: 0.25, sinceLastTick: 0) == 250)
    #expect(FramePacing.timeoutMilliseconds(nextFrameDelay: 0.0501, sinceLastTick: 0) == 51)
    #expect(FramePacing.timeoutMilliseconds(nextFrameDelay: 1e12, sinceLastTick: 0) == 3_600_000)
  }

  @Test func ticksPassRealTimeButNotATimeStopped() {
    #expect(FramePacing.tickElapsed(measured: 0.034, requestedDelay: 0) == 0.034)
    #expect(FramePacing.tickElapsed(measured: 0.4, requestedDelay: 0.5) == 0.4)
    #expect(FramePacing.tickElapsed(measured: -0.1, requestedDelay: 0) == 0)
    // Suspended for a minute (Ctrl-Z): the scenario continues where it was, not a minute later.
    let resumed = FramePacing.tickElapsed(measured: 60, requestedDelay: 0.05)
    #expect(resumed > 0.05 && resumed < 1)
  }
}

@Suite struct TerminalPolicyTests {
  @Test func utf8Codesets() {
    for name in ["UTF-8", "utf-8", "utf8", "UTF8"] {
      #expect(LocalePolicy.isUTF8(codeset: name), "\(name)")
    }
    for name in ["ANSI_X3.4-1968", "ISO-8859-1", "", "EUC-JP"] {
      #expect(!LocalePolicy.isUTF8(codeset: name), "\(name)")
    }
  }

  @Test func unusableTermValues() {
    #expect(TermPolicy.problem(term: "") == .dumbTerminal(""))
    #expect(TermPolicy.problem(term: "dumb") == .dumbTerminal("dumb"))
    #expect(TermPolicy.problem(term: "xterm-256color") == nil)
  }

  @Test func everyErrorPointsAtTrace() {
    let errors: [TerminalError] = [
      .notATerminal, .dumbTerminal(""), .dumbTerminal("dumb"), .dumbTerminal("vt05x"),
      .initFailed("newterm"),
    ]
    for error in errors {
      #expect(error.description.hasPrefix("opsview: "))
      #expect(error.description.contains("`opsview trace`"))
    }
    #expect(TerminalError.dumbTerminal("dumb").description.contains("'dumb'"))
    #expect(TerminalError.dumbTerminal("vt05x").description.contains("'vt05x'"))
    #expect(TerminalError.dumbTerminal("").description.contains("TERM is not set"))
  }

  @Test func exitCodes() {
    #expect(ExitReason.quit.exitCode == 0)
    #expect(ExitReason.signal(2).exitCode == 130)
    #expect(ExitReason.signal(15).exitCode == 143)
  }

  @Test func defaultOptions() {
    let options = TerminalOptions()
    #expect(options.mouse && !options.ascii && options.color == nil)
  }
}
