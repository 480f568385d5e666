#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a `pthread` mutex, for state that threads contend for; the lock of the
/// package (engine, domain, CLI and tests).
///
/// Why not `Synchronization.Mutex`: with Swift 6.3.1 on Linux its contended path waits on a futex
/// inside the uninstrumented standard library, so Thread Sanitizer (which CI runs) cannot see
/// the hand-over and reports false races on state accessed only under the lock. `pthread`
/// mutexes are intercepted by the sanitizer.
package final class LockedState<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `withLock`, under `mutex`.
    /// Allocated apart from the object: a `pthread_mutex_t` must not move once initialised, and
    /// a stored property of a class has no stable address Swift promises.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // A default (non-recursive, non-checking) mutex: initialising one cannot fail.
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
