
/// A ``Scheduler`` whose time moves only when a test says so.
///
/// Put it in the ``OpEnvironment`` of a test and call ``advance(by:)``: every piece of work due
/// by then runs, in order of its due time, on the calling thread. Retry backoff and deadlines
/// are tested this way without sleeping.
public final class TestScheduler: Scheduler {
    private struct Pending {
        let id: UInt64
        let due: ContinuousClock.Instant
        let work: @Sendable () -> Void
    }

    private struct State {
        var now: ContinuousClock.Instant
        var nextID: UInt64 = 0
        var pending: [Pending] = []
        var requestedDelays: [Duration] = []
    }

    private let state: LockedState<State>

    /// Creates a scheduler whose clock starts at the current instant and stands still.
    public init() {
        state = LockedState(State(now: .now))
    }

    /// The current instant of this scheduler's clock.
    public var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// The delays of all work scheduled so far, in the order it was scheduled: what a backoff
    /// test compares with its policy.
    public var requestedDelays: [Duration] { state.withLock { $0.requestedDelays } }

    /// How many pieces of work wait for their time.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Runs `work` once at or after `instant`; the returned handle cancels it.
    public func schedule(at instant: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void)
        -> any ScheduledWork
    {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.requestedDelays.append(state.now.duration(to: instant))
            state.pending.append(Pending(id: id, due: instant, work: work))
            return id
        }
        return TestWork(scheduler: self, id: id)
    }

    /// Moves the clock forward, running every piece of work that falls due, including work
    /// scheduled by that work.
    ///
    /// - Parameter duration: How far to move.
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now.advanced(by: duration) }
        while let next = takeNext(dueBy: target) {
            next.work()
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Runs the work that is due now, without moving the clock.
    public func runDue() {
        advance(by: .zero)
    }

    private func takeNext(dueBy target: ContinuousClock.Instant) -> Pending? {
        state.withLock { state in
            let due = state.pending.enumerated().filter { $0.element.due <= target }
            guard let first = due.min(by: { ($0.element.due, $0.element.id) < ($1.element.due, $1.element.id) })
            else { return nil }
            state.pending.remove(at: first.offset)
            state.now = max(state.now, first.element.due)
            return first.element
        }
    }

    fileprivate func cancel(_ id: UInt64) {
        state.withLock { $0.pending.removeAll { $0.id == id } }
    }
}

private struct TestWork: ScheduledWork {
    let scheduler: TestScheduler
    let id: UInt64

    func cancel() { scheduler.cancel(id) }
}
