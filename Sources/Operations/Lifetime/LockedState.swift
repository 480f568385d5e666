import Foundation

/// A value guarded by a `pthread`-backed `NSLock`, for state that threads contend for; the lock
/// of the package (engine, domain, CLI and tests). The one exception is ``CancellationToken``,
/// which guards its few handlers with one atomic word of its own to stay a single allocation.
///
/// Why not `Synchronization.Mutex`: with Swift 6.3.1 on Linux its contended path waits on a futex
/// inside the uninstrumented standard library, so Thread Sanitizer (which CI runs) cannot see
/// the hand-over and reports false races on state accessed only under the lock. `NSLock` is
/// intercepted by the sanitizer. No hot path takes a lock: launch and finish use atomics.
package final class LockedState<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    // Unchecked exclusivity: the lock already makes every access exclusive, and the run-time
    // check (swift_beginAccess/endAccess, a thread-local access set) cost about as much as the
    // lock itself on a recorded trace message.
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
