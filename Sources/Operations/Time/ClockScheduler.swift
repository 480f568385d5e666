public import Foundation

/// A ``Scheduler`` driven by any `Clock` whose durations are `Duration`: the standard clocks,
/// an app's own, a test clock (`OperationsTesting`'s `TestScheduler` is one).
///
/// Put it in the ``OpEnvironment`` and the engine's deadlines, retry backoff and waits run on
/// that clock:
///
/// ```swift
/// let environment = OpEnvironment(scheduler: ClockScheduler(ContinuousClock()))
/// ```
///
/// The engine reckons in `ContinuousClock` instants (deadlines in ``OpContext`` are such
/// instants); the adapter maps them to the clock's own by how far each is from the moment it
/// was made, so ``now`` moves exactly as far as the clock does. Each piece of work sleeps on the
/// clock in a task of its own; cancelling it cancels the sleep.
public struct ClockScheduler: Scheduler {
    /// How far the clock has moved since the adapter was made.
    private let elapsed: @Sendable () -> Duration
    /// Sleeps until the clock has moved this far since the adapter was made.
    private let sleepUntilElapsed: @Sendable (Duration) async throws -> Void
    private let origin: ContinuousClock.Instant
    private let originWallClock: Date

    /// Creates a scheduler on `clock` (an `any Clock<Duration>` too). `wallClock` is the time
    /// the clock stands for now; ``wallClock`` moves on from it as far as the clock moves, so a
    /// test clock's durable waits journal the same deadline on every run.
    public init<C: Clock>(_ clock: C, wallClock: Date = Date()) where C.Duration == Duration {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleepUntilElapsed = { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
        origin = .now
        originWallClock = wallClock
    }

    /// The current instant: the instant the adapter was made, moved on as far as the clock has.
    public var now: ContinuousClock.Instant { origin.advanced(by: elapsed()) }

    /// The wall-clock time: the one given at creation, moved on as far as the clock has.
    public var wallClock: Date { originWallClock.addingTimeInterval(elapsed().inSeconds) }

    /// Runs `work` once the clock reaches `instant`, from a task that sleeps on the clock; the
    /// returned handle cancels the sleep, and the work does not run.
    public func schedule(at instant: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void)
        -> any ScheduledWork
    {
        let due = origin.duration(to: instant)
        let scheduled = ClockWork(work)
        let sleep = sleepUntilElapsed
        scheduled.attach(
            Task {
                do {
                    try await sleep(due)
                } catch {
                    return
                }
                scheduled.fire()
            })
        return scheduled
    }
}

/// One piece of work a ``ClockScheduler`` runs: the work and the sleeping task, which either
/// firing or cancelling takes exactly once.
private final class ClockWork: ScheduledWork {
    private struct State {
        var work: (@Sendable () -> Void)?
        var task: Task<Void, Never>?
    }

    private let state: LockedState<State>

    init(_ work: @escaping @Sendable () -> Void) {
        state = LockedState(State(work: work))
    }

    /// Keeps the sleeping task, or cancels it when the work was cancelled before it existed.
    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            guard state.work != nil else { return true }
            state.task = task
            return false
        }
        if cancelled { task.cancel() }
    }

    func fire() {
        let work = state.withLock { state in
            defer { state = State() }
            return state.work
        }
        work?()
    }

    func cancel() {
        let task = state.withLock { state in
            defer { state = State() }
            return state.task
        }
        task?.cancel()
    }
}
