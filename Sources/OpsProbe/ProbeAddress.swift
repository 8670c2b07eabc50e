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
}
