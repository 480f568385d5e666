public import Dispatch

/// The production ``Scheduler``: the continuous clock and Dispatch timers on a global queue.
public struct DispatchScheduler: Scheduler {
    private let queue: DispatchQueue

    /// A scheduler on the default-priority global queue.
    public static let shared = DispatchScheduler(queue: .global())

    /// Creates a scheduler that runs work on `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// The current instant of this scheduler's clock.
    public var now: ContinuousClock.Instant { .now }

    /// Runs `work` once at or after `instant`; the returned handle cancels it.
    ///
    /// Each piece of work is a one-shot timer source, not `asyncAfter`: a cancelled
    /// `DispatchWorkItem` stays queued until its instant, keeping what it holds; a cancelled
    /// timer source is released at once (memory stays flat over many launches with deadlines).
    public func schedule(at instant: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void)
        -> any ScheduledWork
    {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let delay = max(.zero, now.duration(to: instant))
        timer.schedule(deadline: .now() + delay.dispatchInterval)
        let handle = DispatchTimerWork(timer: timer, work: work)
        timer.setEventHandler { handle.fire() }
        timer.activate()
        return handle
    }
}

/// One scheduled piece of work, taken once by firing or cancelling: a cancel drops the work (and
/// what it captured) on the spot, and work dequeued but not started does not run.
private final class DispatchTimerWork: ScheduledWork, @unchecked Sendable {
    // @unchecked: the timer is thread-safe but not marked Sendable on every platform; the work
    // is behind the lock.
    private let timer: any DispatchSourceTimer
    private let work: LockedState<(@Sendable () -> Void)?>

    init(timer: any DispatchSourceTimer, work: @escaping @Sendable () -> Void) {
        self.timer = timer
        self.work = LockedState(work)
    }

    func fire() {
        guard let work = take() else { return }
        timer.cancel()
        work()
    }

    func cancel() {
        _ = take()
        timer.cancel()
    }

    private func take() -> (@Sendable () -> Void)? {
        work.withLock { $0.take() }
    }
}
