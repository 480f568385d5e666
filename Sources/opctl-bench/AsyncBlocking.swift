import Dispatch

/// Runs async benchmark work from the synchronous runner.
enum AsyncBlocking {
    /// Runs `body` in a detached task on the global executor and blocks the calling thread until
    /// it returns. The caller must not be a thread of the cooperative pool (`opctl-bench` calls it from
    /// the main thread; tests from a thread of their own).
    static func run(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await body()
            done.signal()
        }
        done.wait()
    }
}
