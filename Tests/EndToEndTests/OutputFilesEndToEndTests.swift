import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What opsview writes never destroys what it was not asked to write: special files are written in
/// place, the temporary file cannot be planted, inputs are never written over, an existing file is
/// replaced only with --force (or by `export -o`, whose point that is), and a bad path fails when
/// the command starts.
@Suite struct OutputFilesEndToEndTests {
  /// A fresh directory of this process's scratch space.
  static func directory(_ name: String) throws -> String {
    let url = scratchDirectory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }

  @Test func aFIFOIsWrittenInPlaceNotReplaced() throws {
    let dir = try Self.directory("fifo-out")
    let r = try bash(
      #"cd "\#(dir)" && mkfifo out && { cat out > got & } && "$OPSVIEW" export tour --format dot -o out; echo "status $?"; wait; test -p out && echo "still a fifo"; head -c 7 got"#
    )
    #expect(r.output.contains("status 0\nstill a fifo\ndigraph"), "\(r.output)")
  }

  /// A symbolic link is written through, never replaced: to a file (the file gets the export, the
  /// link stays), to standard output through /proc (it reaches the redirection), to nothing (refused).
  @Test func aSymbolicLinkIsWrittenThroughNotReplaced() throws {
    let dir = try Self.directory("symlink-out")
    let r = try bash(
      #"cd "\#(dir)" && echo keep > target.svg && ln -s target.svg link.svg && "$OPSVIEW" export tour --format svg -o link.svg; echo "status $?"; test -L link.svg && echo "still a link"; head -c 5 target.svg; echo; ln -s /proc/self/fd/1 out && "$OPSVIEW" export tour --format mermaid -o out > captured; echo "status $?"; test -L out && echo "still a link"; head -c 9 captured; echo; ln -s missing dangling.svg; "$OPSVIEW" export tour --format svg -o dangling.svg; echo "status $?"; test -e missing || echo "nothing created""#
    )
    #expect(
      r.output.contains("status 0\nstill a link\n<?xml\nstatus 0\nstill a link\nflowchart\n"),
      "\(r.output)")
    #expect(
      r.output.contains(
        "it is a symbolic link to a file that does not exist\nstatus 1\nnothing created"),
      "\(r.output)")
  }

  @Test func aTemporaryNamePlantedBeforehandIsNeverFollowed() throws {
    let dir = try Self.directory("planted")
    let victim = dir + "/victim"
    try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
    // The old name was `.FILE.opsview-PID.tmp`: plant it for the pids about to be used.
    let last = ProcessStatus.lastPID()
    for pid in (last + 1)...(last + 400) {
      try? FileManager.default.createSymbolicLink(
        atPath: dir + "/.x.dot.opsview-\(pid).tmp", withDestinationPath: victim)
    }
    let r = try opsview(["export", "tour", "--format", "dot", "-o", dir + "/x.dot"])
    #expect(r.status == 0, "\(r.err)")
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    #expect(try String(contentsOfFile: dir + "/x.dot", encoding: .utf8).hasPrefix("digraph"))
  }

  @Test(arguments: ["dot", "markdown"])
  func anExportNeverReplacesItsOwnInput(_ format: String) throws {
    let dir = try Self.directory("self")
    let trace = try opsview(["trace", "tour", "--format", "jsonl"])
    let path = dir + "/same.jsonl"
    try trace.out.write(toFile: path, atomically: true, encoding: .utf8)
    let r = try opsview(["export", path, "--format", format, "-o", path])
    #expect(r.status == 1)
    #expect(r.err.contains("cannot write '\(path)': it is the input being read"), "\(r.err)")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == trace.out)
    let relative = try opsview(
      ["export", "same.jsonl", "--format", format, "-o", "./same.jsonl"], cwd: dir)
    #expect(relative.status == 1, "\(relative.err)")
  }

  @Test func anInterruptedExportLeavesNoTemporaryFile() throws {
    let dir = try Self.directory("interrupted")
    // The input is a FIFO nobody writes: the export has made its temporary file and waits. (A
    // background job of a script ignores SIGINT: SIGTERM stands for Ctrl-C.)
    let r = try bash(
      #"cd "\#(dir)" && mkfifo in.jsonl && { "$OPSVIEW" export in.jsonl --format dot -o out.dot & pid=$!; sleep 1.5; ls -a | grep -c opsview; kill -TERM $pid; wait $pid; echo "status $?"; ls -a | grep -c opsview; }"#
    )
    #expect(r.output.contains("1\nstatus 143\n0\n"), "\(r.output)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/out.dot"))
  }

  @Test func aMissingDirectoryIsNamedNotDumped() throws {
    let dir = try Self.directory("missing")
    for command in [
      ["export", "tour", "--format", "dot", "-o", "nodir/x.dot"], ["new", "nodir/x"],
    ] {
      let r = try opsview(command, cwd: dir)
      #expect(r.status == 1, "\(command)")
      #expect(r.err.contains("the directory 'nodir' does not exist"), "\(command): \(r.err)")
      #expect(!r.err.contains("NSCocoaErrorDomain"), "\(command): \(r.err)")
    }
  }

  @Test func exportUntilNegativeStatesItsBounds() throws {
    let r = try opsview(["export", "tour", "--format", "dot", "--until", "-1"])
    #expect(r.status == 2)
    #expect(r.err.contains("--until must be a number of seconds from 0 to 1000000000, found -1"))
    #expect(!r.err.contains("Missing value"))
  }

  /// Names that YAML reads otherwise (quotes, `: #`) wrote a starter `check` refused; names with
  /// control characters were printed raw.
  @Test(arguments: [#"a"b"#, "x: #y", "it's", "#hash", "tab\tname", "", ".yaml"])
  func newWritesAStarterThatChecksOrRefusesTheName(_ name: String) throws {
    let dir = try Self.directory("new")
    let r = try opsview(["new", name], cwd: dir)
    if name.isEmpty || name == ".yaml" {
      // Before: `.yaml`, a hidden file whose comments said `opsview play .yaml.yaml`.
      #expect(r.status == 2)
      #expect(r.err.contains("a scenario name cannot be blank; nothing written"), "\(r.err)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
      return
    }
    if name.contains("\t") {
      #expect(r.status == 2)
      #expect(r.err.contains(#"control character U+0009 in a scenario name"#), "\(r.err)")
      #expect(!HardeningCommandLineTests.hasRawControls(r.out + r.err))
      return
    }
    #expect(r.status == 0, "\(r.err)")
    let check = try opsview(["check", name + ".yaml"], cwd: dir)
    #expect(check.status == 0, "\(check.out)")
  }

  @Test func newPrintsNoEscapeCodes() throws {
    let dir = try Self.directory("new-escape")
    let r = try opsview(["new", "x\u{1B}[2J"], cwd: dir)
    #expect(r.status == 2)
    #expect(!HardeningCommandLineTests.hasRawControls(r.out + r.err), "\(r.err.debugDescription)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
  }
}

/// `play` and `attach` write files too: checked on the board (they need a terminal).
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed: skipping the board's file tests"))
struct BoardOutputFilesEndToEndTests {
  func run(_ arguments: [String], in dir: String) throws -> TmuxSession {
    let binary = try #require(OpsviewBinary.path)
    return try TmuxSession(
      width: 140, height: 40,
      command: ["/usr/bin/env", "-C", dir] + TmuxSession.wrapped(binary, arguments))
  }

  @Test func anExistingFileIsNotOverwrittenWithoutForce() throws {
    let dir = try OutputFilesEndToEndTests.directory("board-existing")
    for name in ["existing.yaml", "existing.jsonl"] {
      try "mine\n".write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }
    for arguments in [
      ["play", "tour", "--save-actions", "existing.yaml"],
      ["play", "tour", "--record", "existing.jsonl"],
    ] {
      let board = try run(arguments, in: dir)
      #expect(board.waitFor("exit: 1"), "\(arguments): \(board.capture())")
      #expect(
        squeezed(board.capture()).contains(
          squeezed("it exists, and opsview does not overwrite a file it was not asked to")),
        "\(arguments): \(board.capture())")
    }
    for name in ["existing.yaml", "existing.jsonl"] {
      #expect(try String(contentsOfFile: dir + "/" + name, encoding: .utf8) == "mine\n")
    }
    // With --force it is the point: replaced.
    let board = try run(["play", "tour", "--record", "existing.jsonl", "--force"], in: dir)
    #expect(board.waitFor("q quit"), "\(board.capture())")
    try board.send("q")
    #expect(board.waitFor("exit: 0"), "\(board.capture())")
    #expect(
      try String(contentsOfFile: dir + "/existing.jsonl", encoding: .utf8).hasPrefix(
        #"{"format":"opsview-recording""#))
  }

  @Test func theScenarioPlayedIsNeverWrittenOver() throws {
    let dir = try OutputFilesEndToEndTests.directory("board-input")
    #expect(try opsview(["new", "my"], cwd: dir).status == 0)
    let before = try String(contentsOfFile: dir + "/my.yaml", encoding: .utf8)
    for arguments in [
      ["play", "my.yaml", "--record", "my.yaml", "--force"],
      ["play", "my.yaml", "--save-actions", "./my.yaml", "--force"],
    ] {
      let board = try run(arguments, in: dir)
      #expect(board.waitFor("exit: 1"), "\(arguments): \(board.capture())")
      #expect(
        squeezed(board.capture()).contains(squeezed("name another file")),
        "\(arguments): \(board.capture())")
    }
    #expect(try String(contentsOfFile: dir + "/my.yaml", encoding: .utf8) == before)
  }

  /// The path is tried at once, not at quit after the whole run, where the key actions would be
  /// lost.
  @Test func aSaveActionsPathThatCannotBeWrittenFailsAtOnce() throws {
    let dir = try OutputFilesEndToEndTests.directory("board-nodir")
    let board = try run(["play", "tour", "--save-actions", "nodir/x.yaml"], in: dir)
    #expect(board.waitFor("exit: 1", timeout: .seconds(10)), "\(board.capture())")
    #expect(
      squeezed(board.capture()).contains(
        squeezed("cannot write 'nodir/x.yaml': the directory 'nodir' does not exist")),
      "\(board.capture())")
  }

  /// `--record adir` printed `Error Domain=NSCocoaErrorDomain Code=512 "(null)"`.
  @Test func aDirectoryIsNamedNotDumped() throws {
    let dir = try OutputFilesEndToEndTests.directory("board-adir")
    try FileManager.default.createDirectory(
      atPath: dir + "/adir", withIntermediateDirectories: true)
    let board = try run(["play", "tour", "--record", "adir"], in: dir)
    #expect(board.waitFor("exit: 1", timeout: .seconds(10)), "\(board.capture())")
    let screen = squeezed(board.capture())
    #expect(
      screen.contains(squeezed("cannot write the recording 'adir': it is a directory")), "\(screen)"
    )
    #expect(!screen.contains("NSCocoaErrorDomain"), "\(screen)")
  }

  @Test func aRecordingToAFIFOWritesInPlace() throws {
    let dir = try OutputFilesEndToEndTests.directory("board-fifo")
    #expect(mkfifo(dir + "/rec", 0o600) == 0)
    let reader = try ChildProcess(
      ["/bin/sh", "-c", "cat \"$0\" > \"$0.got\"", dir + "/rec"], outputPath: dir + "/reader.log")
    let board = try run(["play", "tour", "--record", "rec"], in: dir)
    #expect(board.waitFor("q quit"), "\(board.capture())")
    try board.send("q")
    #expect(board.waitFor("exit: 0"), "\(board.capture())")
    #expect(reader.waitForExit(timeout: .seconds(10)))
    var info = stat()
    #expect(lstat(dir + "/rec", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    #expect(
      try String(contentsOfFile: dir + "/rec.got", encoding: .utf8).hasPrefix(
        #"{"format":"opsview-recording""#))
  }

  /// A watched file swapped for a 2 GB sparse one was read into memory at every key.
  @Test func aWatchedFileGrownHugeIsNotRead() throws {
    let dir = try OutputFilesEndToEndTests.directory("board-watch")
    #expect(try opsview(["new", "w"], cwd: dir).status == 0)
    let board = try run(["play", "--watch", "w.yaml", "--paused"], in: dir)
    #expect(board.waitFor("q quit"), "\(board.capture())")
    let pid = try #require(board.waitForChild())
    #expect(truncate(dir + "/w.yaml", 2 << 30) == 0)
    #expect(
      board.waitUntil(timeout: .seconds(20)) { $0.contains("file too large") }, "\(board.capture())"
    )
    try board.send("Space", "Space")
    let kilobytes = try #require(ProcessStatus.residentKilobytes(of: pid))
    #expect(kilobytes < 400_000, "\(kilobytes) kB resident")
    try board.send("q")
    #expect(board.waitFor("exit: 0"), "\(board.capture())")
  }
}
