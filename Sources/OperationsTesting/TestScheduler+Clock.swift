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
        let sleeper = TestSleep()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleeper.begin(continuation, work: schedule(at: deadline) { sleeper.wake() })
            }
        } onCancel: {
            sleeper.cancel()
        }
    }
}

/// One sleep, resumed exactly once: by its work or by cancellation.
private final class TestSleep: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var work: (any ScheduledWork)?
        var cancelled = false
    }

    private let state = LockedState(State())

    func begin(_ continuation: CheckedContinuation<Void, any Error>, work: any ScheduledWork) {
        let cancelled = state.withLock { state in
            guard !state.cancelled else { return true }
            state.continuation = continuation
            state.work = work
            return false
        }
        if cancelled {
            work.cancel()
            continuation.resume(throwing: CancellationError())
        }
    }

    func wake() {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    func cancel() {
        let (continuation, work) = state.withLock { state in
            state.cancelled = true
            defer {
                state.continuation = nil
                state.work = nil
            }
            return (state.continuation, state.work)
        }
        work?.cancel()
        continuation?.resume(throwing: CancellationError())
    }
}
