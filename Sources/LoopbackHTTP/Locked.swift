import Foundation

/// A value guarded by a lock, for the little state the server's thread shares with others.
///
/// `NSLock` rather than `Synchronization.Mutex`: Thread Sanitizer, which CI runs, sees through a
/// pthread mutex (what `NSLock` wraps) but reports false races behind `Mutex`'s futex on Linux
/// (Sources/Operations/Lifetime/LockedState.swift says the same for the engine's lock).
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
