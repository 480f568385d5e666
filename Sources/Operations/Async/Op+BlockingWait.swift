import Dispatch

extension Op {
    /// Launches the operation and blocks the calling thread until its first finish, or until
    /// `timeout` passes (`nil`). Package-wide, not public: a blocking wait is for tests
    /// (`OperationsTesting`'s `launchAndWait`) and for drawing diagrams from a simulator that
    /// answers on its own queue, never for an app's threads.
    package func blockingResult(_ context: OpContext<Input>, timeout: Duration) -> Result<Output, any Error>? {
        let outcome = LockedState<Result<Output, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        launch(context) { result in
            let first = outcome.withLock { outcome in
                guard outcome == nil else { return false }
                outcome = result
                return true
            }
            if first { finished.signal() }
        }
        guard finished.wait(timeout: .now() + timeout.dispatchInterval) == .success else { return nil }
        return outcome.withLock { $0 }
    }
}
