#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The program's open-file limit (`getrlimit(RLIMIT_NOFILE)`), 1024 when unknown. glibc's Swift
/// import types the resource as the enum `__rlimit_resource_t`; Darwin's as a plain `Int32`.
enum DescriptorLimit {
  static var current: Int {
    var rl = rlimit()
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &rl) == 0 else { return 1024 }
    return Int(min(rl.rlim_cur, rlim_t(Int32.max)))
  }
}
