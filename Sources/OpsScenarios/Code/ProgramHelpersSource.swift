/// The helper types every generated program carries: the text of `Printed/ProgramHelpers.swift`,
/// embedded at build time from the same file that is compiled into this module, so the program
/// `opsview code` prints runs the `TimedOperation` that `opsview verify` checks.
enum ProgramHelpersSource {
  static let text = EmbeddedSources.files.first { $0.name == "ProgramHelpers" }?.text ?? ""
}
