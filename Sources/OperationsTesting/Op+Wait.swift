import Dispatch
public import Operations

// MARK: - API

extension Op {
    /// Launches the operation and blocks the calling thread until it finishes or `timeout`
    /// passes — for synchronous tests, never for a main thread. A test that never gets its
    /// finish fails after `timeout` instead of hanging the run.
    ///
    /// - Parameters:
    ///   - context: The launch context.
    ///   - timeout: How long to wait.
    /// - Returns: The operation's output.
    /// - Throws: The operation's error, or ``LaunchProbeError/neverFinished(operation:)``.
    public func launchAndWait(_ context: OpContext<Input>, timeout: Duration = TestTimeout.standard) throws -> Output {
        guard let result = blockingResult(context, timeout: timeout) else {
            throw LaunchProbeError.neverFinished(operation: String(describing: Self.self))
        }
        return try result.get()
    }

    /// ``launchAndWait(_:timeout:)`` for async tests: waits for the finish without blocking any
    /// thread, and gives up after `timeout` (a Dispatch timer races the finish; nothing sleeps).
    /// Unlike ``launch(_:)`` it fails a test whose operation never finishes instead of hanging it.
    ///
    /// - Parameters:
    ///   - context: The launch context.
    ///   - timeout: How long to wait.
    /// - Returns: The operation's output.
    /// - Throws: The operation's error, or ``LaunchProbeError/neverFinished(operation:)``.
    public func launchAndAwait(_ context: OpContext<Input>, timeout: Duration = TestTimeout.standard) async throws
        -> Output
    {
        let slot = LockedState<CheckedContinuation<Output, any Error>?>(nil)
        let name = String(describing: Self.self)
        return try await withCheckedThrowingContinuation { continuation in
            slot.withLock { $0 = continuation }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) {
                slot.withLock { $0.take() }?.resume(throwing: LaunchProbeError.neverFinished(operation: name))
            }
            launch(context) { result in slot.withLock { $0.take() }?.resume(with: result) }
        }
    }
}
