import ArgumentParser
import Foundation
import OpsInput

/// `opsview`: watch operations move through the NSOperation state machine.
struct Opsview: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "opsview",
    abstract: "Watch operations move through the NSOperation / Operation state machine.",
    discussion: """
      With no subcommand, plays the built-in 'tour' scenario on the live board.
      Exit codes: 0 ok, 1 scenario or validation error, 2 usage or terminal error.
      """,
    version: "0.1.0",
    subcommands: [
      Play.self, Replay.self, Attach.self, Trace.self, Export.self, Code.self, Verify.self,
      New.self,
      List.self, Check.self,
    ],
    defaultSubcommand: Play.self
  )
}

/// Exit codes with a meaning: 0 ok, 1 scenario/validation error, 2 usage.
enum Exit {
  static let scenarioError = ExitCode(1)
  static let usage = ExitCode(2)
}

@main
enum Main {
  @MainActor static func main() {
    CrashReports.prepare()
    if let typo = MistypedCommand.message(for: Array(CommandLine.arguments.dropFirst())) {
      printError(typo)
      Foundation.exit(2)
    }
    do {
      var command = try Opsview.parseAsRoot()
      try command.run()
      StandardOutput.checkFlushed()
    } catch {
      StandardOutput.checkFlushed()
      // ArgumentParser reports usage problems as EX_USAGE (64); opsview promises 2.
      if Opsview.exitCode(for: error) == .validationFailure {
        printError(Opsview.fullMessage(for: error))
        Foundation.exit(2)
      }
      Opsview.exit(withError: error)
    }
  }
}
