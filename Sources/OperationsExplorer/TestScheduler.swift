import Dispatch
public import Foundation
public import Operations

/// A `Scheduler` whose time moves only when a test says so.
///
/// Put it in the `OpEnvironment` of a test and call ``advance(by:)``: every piece of work due
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
        /// Tests waiting for `count` pieces of work to be scheduled.
        var waiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        /// The explorer's driver, woken outside the lock whenever work is scheduled.
        var onScheduled: (@Sendable () -> Void)?

        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, any Error>] {
            let count = pending.count
            let ready = waiters.filter { $0.count <= count }.map(\.continuation)
            waiters.removeAll { $0.count <= count }
            return ready
        }
    }

    private let state: LockedState<State>
    /// Where ``now`` and ``wallClock`` started.
    private let origin: (instant: ContinuousClock.Instant, wallClock: Date)

    /// The wall-clock time a test scheduler starts at unless told otherwise: a fixed time, so
    /// that a durable wait's journaled deadline is the same on every run of a test.
    public static let defaultWallClock = Date(timeIntervalSince1970: 1_800_000_000)

    /// Creates a scheduler whose clock starts at the current instant and stands still.
    ///
    /// - Parameter wallClock: The wall-clock time the clock starts at. A test that resumes a
    ///   run "killed" during a durable wait starts the resuming scheduler later than the first.
    public init(wallClock: Date = TestScheduler.defaultWallClock) {
        let start = ContinuousClock.Instant.now
        state = LockedState(State(now: start))
        origin = (start, wallClock)
    }

    /// The current instant of this scheduler's clock.
    public var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// The wall-clock time: the starting time moved on as far as ``now`` has moved.
    public var wallClock: Date {
        origin.wallClock.addingTimeInterval(origin.instant.duration(to: now).inSeconds)
    }

    /// The delays of all work scheduled so far, in the order it was scheduled: what a backoff
    /// test compares with its policy.
    public var requestedDelays: [Duration] { state.withLock { $0.requestedDelays } }

    /// How many pieces of work wait for their time.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    var nextDue: ContinuousClock.Instant? { state.withLock { $0.pending.map(\.due).min() } }

    /// Runs `work` once at or after `instant`; the returned handle cancels it.
    public func schedule(at instant: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void)
        -> any ScheduledWork
    {
        let (id, ready, wake) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.requestedDelays.append(state.now.duration(to: instant))
            state.pending.append(Pending(id: id, due: instant, work: work))
            return (id, state.satisfiedWaiters(), state.onScheduled)
        }
        for waiter in ready { waiter.resume() }
        wake?()
        return TestWork(scheduler: self, id: id)
    }

    /// Waits until at least `count` pieces of work are pending — the moment a service that
    /// answers on a queue has come back and the code under test has scheduled what comes next
    /// (a retry's backoff, a timeout) — so that ``advance(by:)`` runs it instead of racing it.
    ///
    /// ```swift
    /// let signIn = Task { try await scenario.launchAndAwait(context) }
    /// try await scheduler.waitForPendingWork()     // the first attempt failed; its retry waits
    /// scheduler.advance(by: .seconds(1))
    /// ```
    ///
    /// - Parameters:
    ///   - count: How many pieces of work must be pending.
    ///   - timeout: How long to wait, on the wall clock (a Dispatch timer; nothing sleeps).
    /// - Throws: ``TestSchedulerError/notScheduled(expected:pending:timeout:)`` when fewer are
    ///   pending after `timeout`.
    public func waitForPendingWork(atLeast count: Int = 1, timeout: Duration = TestTimeout.standard) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let id: UInt64? = state.withLock { state in
                guard state.pending.count < count else { return nil }
                let id = state.nextID
                state.nextID += 1
                state.waiters.append((id, count, continuation))
                return id
            }
            guard let id else { return continuation.resume() }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) { [self] in
                let timedOut = state.withLock { state -> (CheckedContinuation<Void, any Error>, Int)? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return (state.waiters.remove(at: index).continuation, state.pending.count)
                }
                if let (continuation, pending) = timedOut {
                    continuation.resume(
                        throwing: TestSchedulerError.notScheduled(expected: count, pending: pending, timeout: timeout))
                }
            }
        }
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

    /// Moves the clock to the earliest pending work and runs it, with anything else due by
    /// then: what a driver does when the code under test has nothing left to do but wait.
    ///
    /// - Returns: `false` when nothing was pending.
    @discardableResult
    public func runNext() -> Bool {
        guard let due = nextDue else { return false }
        advance(by: max(.zero, now.duration(to: due)))
        return true
    }

    /// Calls `handler`, outside the lock, each time work is scheduled; `nil` stops it.
    func onScheduled(_ handler: (@Sendable () -> Void)?) {
        state.withLock { $0.onScheduled = handler }
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

/// Why a wait on a ``TestScheduler`` gave up.
public enum TestSchedulerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer pieces of work than expected were scheduled within the wait's timeout.
    case notScheduled(expected: Int, pending: Int, timeout: Duration)

    /// A sentence for people: test failures.
    public var description: String {
        switch self {
        case .notScheduled(let expected, let pending, let timeout):
            "expected \(expected) piece\(expected == 1 ? "" : "s") of work scheduled within \(timeout), \(pending) pending"
        }
    }
}
