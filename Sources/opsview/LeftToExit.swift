/// A command's large values (a 50,000-operation scenario, its run and its events) are still alive
/// when the process ends right after it: freeing them object by object was about 5% of `check`,
/// `trace` and `export` at that size, for memory the exit returns anyway. A value passed here is
/// never freed; call it only at the end of a command.
func leaveToExit<T>(_ value: T) {
  _ = Unmanaged.passRetained(LeftToExit(value))
}

private final class LeftToExit<T> {
  let value: T
  init(_ value: T) { self.value = value }
}
