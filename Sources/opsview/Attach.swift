import ArgumentParser
import Foundation
import OpsBoard
import OpsProbe

/// `opsview attach`: the board over a running program's probe.
struct Attach: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Watch a running program that started an OpsProbe; with no address, list them.",
    discussion: """
      Probes listen on Unix sockets under $XDG_RUNTIME_DIR/opsview (else /tmp/opsview-UID), \
      readable by this user only. Steering keys work only if the program enabled control.
      """)

  @Argument(help: "The probe's socket path (as `opsview attach` lists them).")
  var address: String?

  @OptionGroup var display: DisplayOptions

  func run() throws {
    guard let address else {
      let probes = ProbeAddress.running()
      if probes.isEmpty {
        print("no probes running for this user (looked in \(ProbeAddress.directory))")
      }
      for p in probes { print(p) }
      return
    }
    try preflightTerminal()
    let client = ProbeClient(address: address)
    let board = BoardSession(
      title: URL(fileURLWithPath: address).deletingPathExtension().lastPathComponent, notes: "",
      makeSource: { ProbeSource(client: client) })
    try runOnTerminal(board, display)
  }
}
