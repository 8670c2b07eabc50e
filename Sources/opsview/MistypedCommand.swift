import Foundation
import OpsScenarios

/// `opsview lst` or `opsview exprot tour`: a first word that is no subcommand, option, built-in
/// scenario or file, but is one letter or two away from a subcommand, is a typo of it, not a
/// scenario to play. Without this, `play` (the default subcommand) reports a missing scenario.
enum MistypedCommand {
  /// The message for `arguments` (without the program name), or nil when the first word is fine.
  static func message(for arguments: [String]) -> String? {
    guard let first = arguments.first, !first.hasPrefix("-"), !first.contains("/") else {
      return nil
    }
    let commands = Opsview.configuration.subcommands.map { $0._commandName }
    guard !commands.contains(first), !Catalog.names.contains(first),
      !FileManager.default.fileExists(atPath: first),
      let guess = NearMiss.suggestion(for: first, among: commands)
    else { return nil }
    return "opsview: unknown command '\(first)' — did you mean '\(guess)'? (opsview --help lists "
      + "them; a scenario to play is a built-in name or a file)"
  }
}
