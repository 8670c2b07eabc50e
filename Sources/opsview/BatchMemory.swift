#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// For the commands that build a whole run in memory and exit (`trace`, `export`, `check`): keep
/// what the heap grows to instead of handing it back and faulting it in again. At 50,000 operations
/// glibc's defaults map large arrays in and out as they grow and trim the heap after frees: a quarter
/// of the page faults of a trace, and 4–5% of its time.
func keepHeapForBatchWork() {
  #if canImport(Glibc)
    // `mallopt` is in <malloc.h>, which the Glibc module does not import: looked up instead.
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(nil, "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    let trimThreshold: Int32 = -1
    let topPad: Int32 = -2
    let mmapThreshold: Int32 = -3  // <malloc.h>
    // 32 MB is the largest mmap threshold glibc accepts on 64-bit.
    _ = mallopt(mmapThreshold, 32 * 1024 * 1024)
    _ = mallopt(trimThreshold, Int32.max)
    _ = mallopt(topPad, 64 * 1024 * 1024)
  #endif
}
