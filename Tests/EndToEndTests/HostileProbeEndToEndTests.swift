import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `opsview attach` against something that is not a probe: the board ends, the terminal is restored,
/// and one clear line says why (never a crash, a hang or raw escape sequences).
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed: skipping the attach test"))
struct HostileProbeEndToEndTests {
  /// A Unix socket at `path` that sends `bytes` to whoever connects, then holds the connection.
  final class FakeProbe {
    private let listener: Int32
    let path: String

    init(path: String, bytes: [UInt8]) throws {
      self.path = path
      let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      self.listener = listener
      var addr = sockaddr_un()
      addr.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &addr.sun_path) { raw in
        for (i, b) in path.utf8.enumerated() { raw[i] = b }
      }
      let bound = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      guard bound == 0, listen(listener, 4) == 0 else {
        throw Spawn.Failure.cannotStart("fake probe at \(path)", errno)
      }
      Thread.detachNewThread {
        while true {
          let fd = accept(listener, nil, nil)
          guard fd >= 0 else { return }
          var sent = 0
          while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes {
              send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { break }
            sent += n
          }
          Thread.detachNewThread {
            sleep(30)
            close(fd)
          }
        }
      }
    }

    deinit {
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
      unlink(path)
    }
  }

  /// A probe that looks like a new program run at every connection (a new `started`), sends its
  /// header and one event, and hangs up: a viewer reconnects and sees run after run.
  final class RestartingProbe {
    private let listener: Int32
    let path: String

    init(path: String) throws {
      self.path = path
      let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      self.listener = listener
      var addr = sockaddr_un()
      addr.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &addr.sun_path) { raw in
        for (i, b) in path.utf8.enumerated() { raw[i] = b }
      }
      let bound = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      guard bound == 0, listen(listener, 4) == 0 else {
        throw Spawn.Failure.cannotStart("restarting probe at \(path)", errno)
      }
      Thread.detachNewThread {
        var run = 0
        while true {
          let fd = accept(listener, nil, nil)
          guard fd >= 0 else { return }
          run += 1
          let bytes = Array(
            (#"{"control":false,"format":"opsview-probe","pid":\#(run),"program":"flaky","sampleInterval":0.05,"started":\#(run),"version":2}"#
              + "\n" + SampleEvents.queues[0] + "\n").utf8)
          _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
          usleep(50_000)
          close(fd)
        }
      }
    }

    deinit {
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
      unlink(path)
    }
  }

  /// A program that restarts every fraction of a second wrote a recording file a run, without end.
  @Test func aProgramRestartingWithoutEndFillsAtMostTenRecordings() throws {
    let binary = try #require(OpsviewBinary.path)
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("opsview-restarting-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let probe = try RestartingProbe(path: directory + "/flaky.sock")
    let board = try TmuxSession(
      width: 160, height: 40,
      command: TmuxSession.wrapped(
        binary, ["attach", probe.path, "--record", directory + "/rec.jsonl"]))
    #expect(
      board.waitUntil(timeout: .seconds(40)) { $0.contains("recording stopped after 10 runs") },
      "screen:\n\(board.capture())")
    try board.send("q")
    #expect(board.waitFor("exit: 0", timeout: .seconds(20)), "screen:\n\(board.capture())")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
      $0.hasPrefix("rec")
    }
    #expect(files.count == 10, "\(files.sorted())")
    #expect(
      squeezed(board.capture()).contains(squeezed("wrote the first 10 runs of the program")),
      "screen:\n\(board.capture())")
  }

  static let header =
    #"{"control":true,"format":"opsview-probe","pid":1,"program":"fake","sampleInterval":0.05,"version":2}"#
    + "\n"

  @Test(arguments: [
    ("garbage", header + "not json {\n", "line 2 is not an event"),
    (
      "escapes", header + "\u{1b}[2J\u{1b}]0;owned\u{7}\n",
      "line 2 carries a control character (byte 27)"
    ),
    ("huge", header + String(repeating: "x", count: 3 << 20), "longer than 1 MiB"),
    ("http", "HTTP/1.1 200 OK\r\n\r\n", "not an opsview probe"),
    // Sound JSON, impossible lifecycle: the board folded it and crashed (a negative count).
    (
      "repeated",
      header
        + (SampleEvents.start + [SampleEvents.state(6, "pending", "ready")]).joined(
          separator: "\n") + "\n",
      "'download' moves from pending to ready, but it is ready"
    ),
    (
      "huge-time",
      header
        + (SampleEvents.start + [SampleEvents.state(6, "ready", "executing", time: "1e17")])
        .joined(separator: "\n") + "\n",
      "past the end of the clock"
    ),
  ])
  func aStreamThatIsNotAProbeEndsTheBoardWithAMessage(
    what: String, stream: String, expected: String
  ) throws {
    let binary = try #require(OpsviewBinary.path)
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("opsview-hostile-\(getpid())-\(what)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let fake = try FakeProbe(path: directory + "/fake.sock", bytes: Array(stream.utf8))
    let board = try TmuxSession(
      width: 120, height: 40, command: TmuxSession.wrapped(binary, ["attach", fake.path]))
    #expect(board.waitFor("exit: 1", timeout: .seconds(30)), "screen:\n\(board.capture())")
    let screen = board.capture()
    #expect(screen.contains("sent a stream opsview cannot read"), "screen:\n\(screen)")
    // The message may wrap at the pane's width, at a space or within a word (so both go).
    #expect(squeezed(screen).contains(squeezed(expected)), "screen:\n\(screen)")
    #expect(screen.contains("tty: restored"), "screen:\n\(screen)")
  }

  @Test func aNonLoopbackAddressIsRefused() throws {
    let binary = try #require(OpsviewBinary.path)
    let result = try Spawn.run(["/bin/sh", "-c", "\"$0\" attach 10.1.2.3:7070 2>&1", binary])
    #expect(result.status == 2)
    #expect(result.output.contains("refusing to connect to 10.1.2.3"), "\(result.output)")
  }
}
