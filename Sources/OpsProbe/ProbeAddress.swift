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

  /// The probes of this user that are running: sockets whose process is alive. A stale socket of a
  /// program that crashed is removed.
  public static func running() -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return files.filter { $0.hasSuffix(".sock") }.sorted().compactMap { file in
      let path = directory + "/" + file
      let stem = file.dropLast(".sock".count)
      guard let dash = stem.lastIndex(of: "-"), let pid = Int32(stem[stem.index(after: dash)...])
      else { return nil }
      if kill(pid, 0) != 0 && errno == ESRCH {
        unlink(path)
        return nil
      }
      return path
    }
  }

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
    let mine = running().filter { program(ofPath: $0) == safe }
    func started(_ path: String) -> Date {
      ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date)
        ?? .distantPast
    }
    return mine.sorted { started($0) > started($1) }
  }
}
