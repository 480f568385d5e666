import Foundation

/// Runs a blocking wait on a thread of its own and hands its result to an async caller.
///
/// On Linux the threads Swift Testing runs tests on and Dispatch's global queues share one pool
/// as wide as the machine: a blocking wait on one of them (a semaphore, ``LaunchProbe``, a
/// helper of your own that waits for a callback) delays every service that answers on a queue
/// until the pool grows (about a second), and stalls parallel tests. A plain thread starves no
/// one. ``LaunchProbe/awaitLaunch(_:context:timeout:)`` is built on it; use it for the blocking
/// waits of your own test helpers.
///
/// ```swift
/// // A helper of your own that blocks until a callback came, or gives up.
/// let delivered = await OwnThread.run { semaphore.wait(timeout: .now() + 5) == .success }
/// ```
public enum OwnThread {
    /// Runs `body` on a new thread and returns what it returns.
    ///
    /// - Parameter body: The blocking work.
    /// - Returns: The value of `body`.
    public static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// Runs `body` on a new thread and returns what it returns, or throws what it throws.
    ///
    /// - Parameter body: The blocking work.
    /// - Returns: The value of `body`.
    /// - Throws: The error of `body`.
    public static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
