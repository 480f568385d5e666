import Operations

/// The test scheduler is a `Clock` too, so code written against `some Clock<Duration>` (an
/// app's own timers, a swift-clocks-style dependency) runs on it: a sleep is pending work that
/// ``TestScheduler/advance(by:)`` runs, and ``TestScheduler/waitForPendingWork(atLeast:timeout:)``
/// waits for.
///
/// ```swift
/// let reminder = Task { try await scheduler.sleep(for: .seconds(30)) }
/// try await scheduler.waitForPendingWork()
/// scheduler.advance(by: .seconds(30))
/// try await reminder.value
/// ```
extension TestScheduler: Clock {
    /// The smallest step the clock moves by: none, it moves exactly as far as told.
    public var minimumResolution: Swift.Duration { .zero }

    /// Suspends until ``TestScheduler/advance(by:)`` moves the clock to `deadline`.
    ///
    /// A deadline already reached returns at once. Cancelling the sleeping task removes its
    /// pending work and throws `CancellationError`, as the standard clocks do.
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored: the clock wakes exactly at `deadline`.
    /// - Throws: `CancellationError` when the task is cancelled before `deadline`.
    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Swift.Duration?) async throws {
        try Task.checkCancellation()
        guard deadline > now else { return }
        // Resumed once, by the work or by the cancellation; a token runs a handler registered
        // after it fired at once, so a cancellation before the work exists is not missed.
        let cancellation = CancellationToken()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let once = OnceFlag()
                let work = schedule(at: deadline) { if once.claim() { continuation.resume() } }
                cancellation.onCancel {
                    guard once.claim() else { return }
                    work.cancel()
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
