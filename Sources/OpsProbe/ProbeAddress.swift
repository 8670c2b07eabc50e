import Foundation

/// Where probes listen: a Unix domain socket per program, in a directory only this user can enter
/// ($XDG_RUNTIME_DIR/opsview, else /tmp/opsview-UID), so the socket never leaves the machine.
public enum ProbeAddress {
  public static var directory: String {
    if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      return runtime + "/opsview"
    }
    return "/tmp/opsview-\(getuid())"
  }

  /// Makes `directory` if it is missing (0700) and checks it: a directory, not a link, owned by
  /// this user, with no access for group or others. Another user who made `/tmp/opsview-UID` first
  /// (to receive this user's viewers, or to delete their sockets) is refused, never used.
  public static func privateDirectory() throws(ProbeError) -> String {
    let dir = directory
    let parent = (dir as NSString).deletingLastPathComponent
    if !FileManager.default.fileExists(atPath: parent) {
      try? FileManager.default.createDirectory(
        atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    if mkdir(dir, 0o700) != 0 && errno != EEXIST {
      throw ProbeError(
        "cannot make the probe directory \(dir): \(String(cString: strerror(errno)))")
    }
    try check(dir)
    return dir
  }

  /// Why `dir` is not a private directory of this user, if it is not.
  static func check(_ dir: String) throws(ProbeError) {
    var st = stat()
    guard lstat(dir, &st) == 0 else {
      throw ProbeError(
        "cannot read the probe directory \(dir): \(String(cString: strerror(errno)))")
    }
    guard (st.st_mode & S_IFMT) == S_IFDIR else {
      throw ProbeError(
        "\(dir) is not a directory (a link or a file): refusing to use it for probes")
    }
    guard st.st_uid == geteuid() else {
      throw ProbeError(
        "\(dir) belongs to uid \(st.st_uid), not to you (uid \(geteuid())): another user may have made it to receive your viewers; refusing to use it (remove it, or set XDG_RUNTIME_DIR)"
      )
    }
    guard st.st_mode & 0o077 == 0 else {
      throw ProbeError(
        "\(dir) has mode \(String(st.st_mode & 0o777, radix: 8)), not 700: other users could reach your probes; refusing to use it (chmod 700 it, or remove it)"
      )
    }
  }

  /// The socket of a program: its name and process id, so two runs never collide.
  static func path(program: String, pid: Int32) -> String {
    let safe = String(program.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }.prefix(40))
    return "\(directory)/\(safe)-\(pid).sock"
  }

  /// A probe's entry in the directory: its socket, or for a TCP probe a `NAME-PID.tcp` file that
  /// holds its `127.0.0.1:PORT` (so the listing and name lookup find it too).
  struct Entry {
    var file: String
    var address: String
    var program: String
    /// A TCP probe's token, read from its 0600 file.
    var token: String?
  }

  /// The token of the TCP probe at `address` (`127.0.0.1:PORT`), from its file in the directory,
  /// else `OPSVIEW_TOKEN`.
  static func token(for address: String) -> String? {
    entries().first { $0.address == address }?.token
      ?? ProcessInfo.processInfo.environment["OPSVIEW_TOKEN"]
  }

  /// Why the probe directory cannot be used, or nil (`opsview attach` says it when it lists none).
  public static var directoryProblem: String? {
    guard FileManager.default.fileExists(atPath: directory) else { return nil }
    do { try check(directory) } catch { return error.description }
    return nil
  }

  /// The marker file of a TCP probe (`NAME-PID.tcp`).
  static func tcpMarker(program: String, pid: Int32) -> String {
    String(path(program: program, pid: pid).dropLast(".sock".count)) + ".tcp"
  }

  /// The running probes' entries: those whose process is alive. A stale entry of a program that
  /// crashed is removed.
  static func entries() -> [Entry] {
    // A directory another user could have written is not read: its sockets may be theirs.
    guard (try? check(directory)) != nil else { return [] }
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return files.sorted().compactMap { file in
      let path = directory + "/" + file
      let ext = file.hasSuffix(".sock") ? ".sock" : file.hasSuffix(".tcp") ? ".tcp" : nil
      guard let ext else { return nil }
      let stem = file.dropLast(ext.count)
      guard let dash = stem.lastIndex(of: "-"), let pid = Int32(stem[stem.index(after: dash)...])
      else { return nil }
      if kill(pid, 0) != 0 && errno == ESRCH {
        unlink(path)
        return nil
      }
      var address = path
      var token: String?
      if ext == ".tcp" {
        // Only a loopback address is taken from the file, whatever it holds; its second line is
        // the token.
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n").map {
          $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let first = lines.first, case .tcp = try? ProbeTarget.parse(first) else { return nil }
        address = first
        token = lines.count > 1 ? lines[1] : nil
      }
      return Entry(file: path, address: address, program: String(stem[..<dash]), token: token)
    }
  }

  /// The probes of this user that are running: socket paths, and `127.0.0.1:PORT` for TCP probes.
  public static func running() -> [String] { entries().map(\.address) }

  /// The program's name in a probe socket's file name (`photos-123.sock` → `photos`).
  public static func program(ofPath path: String) -> String? {
    let file = URL(fileURLWithPath: path).lastPathComponent
    guard file.hasSuffix(".sock") else { return nil }
    let stem = file.dropLast(".sock".count)
    guard let dash = stem.lastIndex(of: "-"), Int32(stem[stem.index(after: dash)...]) != nil
    else { return nil }
    return String(stem[..<dash])
  }

  /// The running probes of the program `name`, newest (most recently started) first.
  public static func running(named name: String) -> [String] {
    let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }.prefix(40))
    func started(_ path: String) -> Date {
      ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date)
        ?? .distantPast
    }
    return entries().filter { $0.program == safe }.sorted { started($0.file) > started($1.file) }
      .map(\.address)
  }
}
