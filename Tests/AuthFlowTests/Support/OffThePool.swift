import Foundation

/// Runs a blocking wait (``LaunchProbe``) on a thread of its own. On Linux the threads Swift
/// Testing runs tests on and Dispatch's global queues share one pool as wide as the machine, so a
/// test blocking a pool thread delays the simulator's answers until the pool grows (about a
/// second); a blocked Dispatch worker is worse. A plain thread starves no one.
func offThePool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// ``offThePool(_:)`` for a blocking wait that can fail.
func offThePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
