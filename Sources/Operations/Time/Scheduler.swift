public import Foundation

/// The time source of the engine: what time it is, and running work later.
///
/// Deadlines and retry backoff go through a scheduler, never through `sleep`, so tests replace
/// it with `OperationsTesting`'s `TestScheduler` and move time forward by hand.
public protocol Scheduler: Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }

    /// The current wall-clock time: what a durable wait journals as its deadline, because the
    /// instants of ``now`` mean nothing to another process that resumes the run.
    ///
    /// Defaults to the system's clock; a test scheduler moves it with its own ``now``.
    var wallClock: Date { get }

    /// Runs `work` once at or after `instant` (as soon as possible for one in the past), on any
    /// thread; the handle returned stops it from running if it has not started.
    func schedule(at instant: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void)
        -> any ScheduledWork
}

/// Work that a ``Scheduler`` will run later.
public protocol ScheduledWork: Sendable {
    /// Keeps the work from running; does nothing once it ran.
    func cancel()
}

// MARK: - API

extension Scheduler {
    /// The system's wall clock, for a scheduler that keeps no clock of its own.
    public var wallClock: Date { Date() }

    /// Runs `work` once after `delay`; the handle returned stops it if it has not started.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void)
        -> any ScheduledWork
    {
        schedule(at: now.advanced(by: delay), work)
    }
}
