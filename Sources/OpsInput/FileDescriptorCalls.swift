#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `open`, `write` and `close` on a descriptor, spelled once for glibc and Darwin: types with methods
/// of those names (`InputFile.open`, a writer's `write`) must name the C library's module to reach
/// its function, and the module is not the same on both.
public enum FileDescriptorCalls {
  public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    #if canImport(Glibc)
      Glibc.open(path, flags, mode)
    #else
      Darwin.open(path, flags, mode)
    #endif
  }

  public static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(fd, bytes, count)
    #else
      Darwin.write(fd, bytes, count)
    #endif
  }

  @discardableResult
  public static func close(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.close(fd)
    #else
      Darwin.close(fd)
    #endif
  }
}
