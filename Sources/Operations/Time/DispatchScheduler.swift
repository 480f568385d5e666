public import Dispatch

/// The production ``Scheduler``: the continuous clock and Dispatch timers on a global queue.
public struct DispatchScheduler: Scheduler {
    private let queue: DispatchQueue

    /// A scheduler on the default-priority global queue.
    public static let shared = DispatchScheduler(queue: .global())

    /// Creates a scheduler that runs work on `queue`.
    ///
    /// - Parameter queue: Where scheduled work runs.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// The current instant of this scheduler's clock.
    public var now: ContinuousClock.Instant { .now }

    /// Runs `work` once at or after `instant`; the returned handle cancels it.
    public func schedule(at instant: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void)
        -> any ScheduledWork
    {
        let item = DispatchWorkItem(block: work)
        let delay = max(.zero, now.duration(to: instant))
        queue.asyncAfter(deadline: .now() + delay.dispatchInterval, execute: item)
        return DispatchWork(item: item)
    }
}

private struct DispatchWork: ScheduledWork {
    // DispatchWorkItem is thread-safe but not marked Sendable on every platform.
    nonisolated(unsafe) let item: DispatchWorkItem

    func cancel() { item.cancel() }
}
