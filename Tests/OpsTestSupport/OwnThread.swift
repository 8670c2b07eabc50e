import Foundation

/// Runs `body` on a thread of its own and awaits it without blocking the caller's thread. A test that
/// waits for Foundation (its queues, a real clock) must not block a thread of the pool that Swift
/// concurrency shares with Foundation's dispatch queues: libdispatch grows that pool by one thread a
/// second, and two such waits on two cores left Foundation nothing to start work on.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { done in
    Thread { done.resume(returning: body()) }.start()
  }
}

/// `onOwnThread` for a body that throws.
public func onOwnThread<T: Sendable>(throwing body: @escaping @Sendable () throws -> T) async throws
  -> T
{
  try await withCheckedThrowingContinuation { done in
    Thread { done.resume(with: Result { try body() }) }.start()
  }
}
