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
  }

  /// The marker file of a TCP probe (`NAME-PID.tcp`).
  static func tcpMarker(program: String, pid: Int32) -> String {
    String(path(program: program, pid: pid).dropLast(".sock".count)) + ".tcp"
  }

  /// The running probes' entries: those whose process is alive. A stale entry of a program that
  /// crashed is removed.
  static func entries() -> [Entry] {
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
      if ext == ".tcp" {
        // Only a loopback address is taken from the file, whatever it holds.
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
          case .tcp = try? ProbeTarget.parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        address = text.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      return Entry(file: path, address: address, program: String(stem[..<dash]))
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
