import Foundation
import OpsTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A viewer, careless or hostile, against the real example program: whatever it sends, the program
/// runs on, its queues get only valid commands, its log gets no raw control character, and other
/// viewers are still served. Every wait is bounded; the program is killed when a test ends.
@Suite(.serialized)
struct HostileViewerEndToEndTests {
  /// The example with its probe in a private runtime directory, started and waited for.
  final class Example {
    let program: ChildProcess
    let runtime: String
    let logPath: String
    let binary: String

    init(_ arguments: [String] = [], runtime given: String? = nil, limit: Int? = nil) throws {
      let (binary, example, runtime) = try AttachEndToEndTests.setUp()
      self.binary = binary
      self.runtime = given ?? runtime
      logPath = self.runtime + "/photos.log"
      let argv =
        limit.map { ["/bin/sh", "-c", "ulimit -n \($0) && exec \"$0\" \"$@\"", example] }
        ?? [example]
      program = try ChildProcess(
        argv + arguments, environment: ["XDG_RUNTIME_DIR": self.runtime], outputPath: logPath)
    }

    deinit {
      program.stop(SIGKILL)
      try? FileManager.default.removeItem(atPath: runtime)
    }

    var log: String { AttachEndToEndTests.read(logPath) }
    var logBytes: [UInt8] {
      Array((try? Data(contentsOf: URL(fileURLWithPath: logPath))) ?? Data())
    }

    /// The probe's socket, once the program says where it is.
    func socket() throws -> String {
      var path = ""
      let found = AttachEndToEndTests.eventually {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("probe at ") })
        else { return false }
        path = String(line[line.range(of: "probe at ")!.upperBound...])
        return true
      }
      try #require(found, "log:\n\(log)")
      return path
    }

    var isRunning: Bool { kill(program.pid, 0) == 0 && !program.waitForExit(timeout: .zero) }

    /// The program's threads.
    var threads: Int { ProcessStatus.threads(of: program.pid) }
  }

  @Test func invalidCommandsAreRefusedAndTheProgramRunsOn() throws {
    let example = try Example()
    let viewer = try RawViewer(unix: try example.socket())
    #expect(viewer.line()?.contains("opsview-probe") == true)
    // Each of these killed the program, removed a limit, or put escapes into its log and history.
    let hostile = [
      #"{"command":"maxConcurrent","target":"downloads","value":-7}"#,
      #"{"command":"maxConcurrent","target":"downloads"}"#,
      #"{"command":"maxConcurrent","target":"downloads","value":"3"}"#,
      #"{"command":"maxConcurrent","target":"downloads","value":true}"#,
      #"{"command":"suspend","target":"\u001b]0;PWNED\u0007\u001b[2J"}"#,
      #"{"command":"suspend","target":"c1\u009b31m"}"#,
      #"{"command":"resume","target":"downloads\u001b"}"#,
      "not json at all \u{1b}[2J",
    ]
    for line in hostile {
      viewer.send(line + "\n")
      // One a second is reported (refusals are coalesced): wait for each to be told.
      _ = AttachEndToEndTests.eventually { example.log.contains("refused from the viewer") }
    }
    #expect(
      AttachEndToEndTests.eventually { example.log.contains("must be a whole number") },
      "log:\n\(example.log)")
    // The stream to a second viewer: no control character, raw or escaped (the board would refuse
    // it), and no limit change on downloads.
    let second = try RawViewer(unix: try example.socket())
    let lines = second.lines(until: "showing photo1-2", timeout: 2)
    let stream = lines.joined(separator: "\n")
    #expect(!stream.contains("\\u001b") && !stream.contains("\\u009b"), "\(stream.suffix(2000))")
    #expect(!stream.contains(#""type":"queueMaxConcurrent""#))
    #expect(stream.contains(#""type":"refused""#))
    // The program lives on and keeps showing photos; its log has no control byte.
    #expect(example.isRunning)
    #expect(
      AttachEndToEndTests.eventually(timeout: .seconds(60)) {
        example.log.contains("showing photo1-1")
      }, "log:\n\(example.log)")
    let bytes = example.logBytes
    #expect(
      !bytes.contains(0x1b) && !bytes.contains(0x07)
        && !zip(bytes, bytes.dropFirst()).contains { $0 == (0xc2, 0x9b) })
  }

  @Test func aFloodOfCommandsIsRateLimitedAndItsRefusalsCoalesced() throws {
    let example = try Example()
    let viewer = try RawViewer(unix: try example.socket())
    #expect(viewer.line() != nil)
    let started = Date()
    var flood = ""
    for i in 0..<20_000 {
      flood +=
        i % 2 == 0
        ? #"{"command":"resume","target":"downloads"}"# + "\n"
        : #"{"command":"suspend","target":"nowhere"}"# + "\n"
    }
    viewer.send(flood)
    #expect(
      AttachEndToEndTests.eventually {
        example.log.contains("commands ignored: over the rate limit")
      },
      "log:\n\(example.log.suffix(3000))")
    let seconds = Date().timeIntervalSince(started) + 1
    let lines = example.log.split(separator: "\n").filter { $0.hasPrefix("opsview:") }.count
    // Before: 20,000 lines (and as many refusals in the event buffer). Now the burst, 20 a second
    // after it, and a report a second.
    #expect(Double(lines) <= 40 + 22 * seconds + 2, "\(lines) lines in \(seconds)s")
    #expect(example.isRunning)
  }

  @Test func viewersAreBoundedServedByOneThreadAndTheRestToldWhy() throws {
    let example = try Example()
    let path = try example.socket()
    let before = example.threads
    var viewers: [RawViewer] = []
    var refused = 0
    for _ in 0..<30 {
      let v = try RawViewer(unix: path)
      viewers.append(v)
      if v.line()?.contains("\"refused\"") == true { refused += 1 }
    }
    // At most 8 served; the other 22 told why. Before: 30 served, two threads each.
    #expect(refused == 22)
    #expect(example.threads <= before + 2, "threads: \(before) → \(example.threads)")
    viewers.removeAll()
    // Those gone, a new viewer is served.
    #expect(
      AttachEndToEndTests.eventually {
        (try? RawViewer(unix: path))?.line()?.contains("\"refused\"") == false
      })
    #expect(example.isRunning)
  }

  @Test func viewersNeverTakeTheDescriptorsTheProgramNeeds() throws {
    // Few descriptors: before, viewers took the last ones, libdispatch could not get one and the
    // program died of SIGILL (and at the limit the accept loop ended for good).
    let example = try Example(limit: 24)
    let path = try example.socket()
    var viewers: [RawViewer] = []
    var replies: [String] = []
    for _ in 0..<20 {
      if let v = try? RawViewer(unix: path) {
        viewers.append(v)
        replies.append(v.line(timeout: 5) ?? "")
      }
    }
    #expect(
      replies.contains { $0.contains("short of file descriptors") }, "\(replies)")
    // The program runs on and shows its photos.
    #expect(
      AttachEndToEndTests.eventually(timeout: .seconds(60)) {
        example.log.contains("showing photo1-2")
      }, "log:\n\(example.log)")
    #expect(example.isRunning, "log:\n\(example.log)")
    viewers.removeAll()
    // The probe still answers every viewer (served, or told why): accepting never ended.
    #expect(
      AttachEndToEndTests.eventually {
        (try? RawViewer(unix: path))?.line(timeout: 2)?.contains("opsview-probe") == true
      }, "log:\n\(example.log)")
  }

  @Test func aProbeThatCannotStartLeavesTheProgramRunningUnobserved() throws {
    // The port is taken: before, `try Probe.start` at top level killed the program.
    let taken = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(taken) }
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        _ = bind(taken, $0, length)
        _ = listen(taken, 1)
        return getsockname(taken, $0, &length)
      }
    }
    let port = UInt16(bigEndian: a.sin_port)
    let example = try Example(["--tcp", "\(port)", "--batches", "1"])
    #expect(
      example.program.waitForExit(timeout: .seconds(60)), "log:\n\(example.log)")
    let log = example.log
    #expect(log.contains("probe not started"), "log:\n\(log)")
    #expect(log.contains("the program runs unobserved"), "log:\n\(log)")
    #expect(log.contains("photos: done"), "log:\n\(log)")
  }

  @Test func aProbeDirectoryAnotherUserCouldWriteIsRefusedOnBothSides() throws {
    let (binary, _, runtime) = try AttachEndToEndTests.setUp()
    // Somebody made the directory first, open to all (as another user could in /tmp).
    let dir = runtime + "/opsview"
    #expect(mkdir(dir, 0o777) == 0)
    chmod(dir, 0o777)
    let example = try Example(["--batches", "1"], runtime: runtime)
    #expect(
      AttachEndToEndTests.eventually { example.log.contains("probe not started") },
      "log:\n\(example.log)")
    #expect(example.log.contains("mode 777"), "log:\n\(example.log)")
    #expect(
      !((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).contains {
        $0.hasSuffix(".sock")
      })
    // The viewer will not list or follow what is in it either.
    let result = try Spawn.run([
      "/bin/sh", "-c", "XDG_RUNTIME_DIR=\"$1\" \"$0\" attach 2>&1", binary, runtime,
    ])
    #expect(result.status == 1, "\(result.output)")
    #expect(result.output.contains("mode 777"), "\(result.output)")
    #expect(example.program.waitForExit(timeout: .seconds(60)), "log:\n\(example.log)")
    #expect(example.log.contains("photos: done"))
  }

  @Test(
    .enabled(
      if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      "needs root and setpriv to connect as another user"))
  func anotherUserIsRefusedEvenWhereTheSocketIsOpenToThem() throws {
    let example = try Example()
    let path = try example.socket()
    // A mistake opens the way (the directories and the socket readable by all): the probe still
    // checks who connects (SO_PEERCRED).
    chmod(example.runtime, 0o711)
    chmod(example.runtime + "/opsview", 0o711)
    chmod(path, 0o666)
    let script =
      #"$s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!"; print scalar <$s>; print scalar <$s>;"#
    let result = try Spawn.run([
      "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
      "/usr/bin/perl", "-MIO::Socket::UNIX", "-e", script, path,
    ])
    #expect(result.output.contains("\"refused\""), "\(result.output)")
    #expect(result.output.contains("only the user who runs the program"), "\(result.output)")
    #expect(!result.output.contains("queueAdded"), "\(result.output)")
  }

  @Test func aTCPProbeGivesNothingToAViewerWithoutItsToken() throws {
    let example = try Example(["--tcp", "0"])
    let address = try example.socket()
    let port = try #require(UInt16(address.split(separator: ":").last ?? ""))
    let stranger = try RawViewer(tcp: port)
    stranger.send(#"{"command":"suspend","target":"downloads"}"# + "\n")
    let reply = stranger.line() ?? ""
    #expect(reply.contains("\"refused\"") && reply.contains("token"), "\(reply)")
    #expect(stranger.line(timeout: 1) == nil)
    #expect(!example.log.contains("downloads suspended"))
    // `opsview attach` finds the token in the probe's 0600 file: the board sees the program.
    let files = try FileManager.default.contentsOfDirectory(atPath: example.runtime + "/opsview")
    let marker = try #require(files.first { $0.hasSuffix(".tcp") })
    let attributes = try FileManager.default.attributesOfItem(
      atPath: example.runtime + "/opsview/" + marker)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    if TmuxSession.isAvailable {
      let board = try TmuxSession(
        width: 120, height: 40,
        command: TmuxSession.wrapped(
          example.binary, ["attach", "photos"], environment: ["XDG_RUNTIME_DIR": example.runtime]))
      #expect(board.waitFor("live", timeout: .seconds(30)), "screen:\n\(board.capture())")
      #expect(board.waitFor("downloads", timeout: .seconds(30)), "screen:\n\(board.capture())")
    }
  }
}
