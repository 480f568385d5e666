import Synchronization

/// One launch of a scenario: the one object a launch makes for itself, which walks the chain's
/// links in a loop, holds what its steps share (the scenario's context, where it sits, the
/// host's observer) and guards each step's attempts against a second finish.
///
/// Constant stack depth: every hand-on from a link to the next, and every relaunch of a step,
/// goes through ``schedule(_:)``, which leaves the work to this run's loop when one is further
/// down the stack (the step finished inside its own launch). A chain whose operations all
/// finish inside their launch still finishes before the scenario's launch returns.
final class ScenarioRun: Sendable {
    let name: String
    /// Where the launch sits: the step it is in its parent, or the root.
    let base: StepAddress
    /// The scenario's context without its input: the environment, token, deadline, key, and
    /// the scenario's own trace scope, which its steps record into.
    let context: OpContext<Void>
    /// When the launch started, for the durations an observer reads; `nil` when nobody observes.
    let startedAt: ContinuousClock.Instant?
    /// The scenario's completion: a failure ends the launch from wherever it happens.
    let ending: any ScenarioEnding
    private let links: [ChainLink]
    private let gate: (any BoundaryGate)?
    /// Whether a loop of this run is running, and the work left for it.
    private let loop = LockedState(Loop())
    /// How many attempts of this run's steps have finished; an attempt's finish is accepted
    /// only when it is the next one, so an operation that calls `onFinish` twice cannot
    /// advance the scenario twice.
    private let finishedAttempts = Atomic<Int>(0)
    /// The finished steps to undo should a later one fail for good, and which one did
    /// (see ScenarioRun+Compensation.swift).
    let undoing = Mutex(Undoing())
    /// The latest attempt the operation of the running step reported making inside its launch
    /// (``OpContext/reportRetry(of:after:took:retryingIn:purity:)``), for the attempt of this
    /// run it belongs to; `nil` until an operation reports one.
    private let innerAttempt = Mutex<InnerAttempt?>(nil)

    private struct Loop {
        var isRunning = false
        /// One slot is enough: a run's links and attempts follow one another, so at most one
        /// piece of work waits at any time.
        var pending: (@Sendable () -> Void)?
    }

    init(
        name: String, context: OpContext<Void>, base: StepAddress, startedAt: ContinuousClock.Instant?,
        links: [ChainLink], ending: any ScenarioEnding, gate: (any BoundaryGate)?
    ) {
        self.name = name
        self.base = base
        self.context = context
        self.startedAt = startedAt
        self.ending = ending
        self.links = links
        self.gate = gate
    }

    var environment: OpEnvironment { context.environment }
    /// Whether an observer receives events: without one, nothing reads step addresses or times.
    var isObserved: Bool { environment.observer != nil }
    var cancellation: CancellationToken? { context.cancellation }
    /// The scenario's own trace scope, `nil` when tracing is off.
    var trace: TraceScope? { context.trace }
    /// Now, for a duration an observer reads; `nil` when nobody observes.
    var now: ContinuousClock.Instant? { Self.start(in: environment) }

    /// When a launch in `environment` starts, for the durations its observer reads; `nil`
    /// (the clock not read) when nobody observes.
    static func start(in environment: OpEnvironment) -> ContinuousClock.Instant? {
        environment.observer != nil ? environment.scheduler.now : nil
    }

    func address(index: Int, name: String) -> StepAddress {
        base.appending(index: index, name: name)
    }

    /// The context of attempt `attempt` of step `index`, called `name`: the scenario's token,
    /// deadline and trace, with the step's own scope and `key`.
    func context<Input: Sendable>(
        _ input: Input, step index: Int, name: String, attempt: Int, key: IdempotencyKey?, resumesEarlierRun: Bool
    ) -> OpContext<Input> {
        var step = context.with(input: input)
        step.scope = ScenarioScope(
            run: self, index: index, name: name, attempt: attempt, resumesEarlierRun: resumesEarlierRun)
        step.idempotencyKey = key
        return step
    }

    /// The scenario's context for what an event handler launches: its trace, cancellation and
    /// services, but neither its replay nor its place in the run — the reaction is not a step,
    /// so it must not be journaled (or replayed) as one. What it launches is told to `observer`
    /// (a ``ReactionRecorder``), which the run's observers hear of as one handled event.
    func boundaryContext(observer: (any ScenarioObserver)?) -> OpContext<Void> {
        var boundary = context
        boundary.environment = environment.with(observer: observer, replay: nil)
        boundary.scope = nil
        // The scenario's own key belongs to its requests as a step; a reaction is none of them.
        boundary.idempotencyKey = nil
        return boundary
    }

    func report(
        _ kind: ScenarioEvent.Kind, address: StepAddress, attempt: Int = 0, value: (any Sendable)? = nil,
        since start: ContinuousClock.Instant? = nil, purity: Purity? = nil, idempotencyKey: IdempotencyKey? = nil
    ) {
        Self.report(
            kind, scenario: name, in: environment, address: address, attempt: attempt, value: value, since: start,
            purity: purity, idempotencyKey: idempotencyKey)
    }

    /// Reports an event of scenario `scenario` to the observer of `environment`, if any: for a
    /// caller that holds the run's parts rather than the run (the scenario's own finish).
    static func report(
        _ kind: ScenarioEvent.Kind, scenario: String, in environment: OpEnvironment, address: StepAddress,
        attempt: Int = 0, value: (any Sendable)? = nil, since start: ContinuousClock.Instant? = nil,
        purity: Purity? = nil,
        idempotencyKey: IdempotencyKey? = nil
    ) {
        guard let observer = environment.observer else { return }
        let duration = start.map { $0.duration(to: environment.scheduler.now) }
        observer.scenario(
            ScenarioEvent(
                kind: kind, scenario: scenario, address: address, attempt: attempt, duration: duration, value: value,
                purity: purity, idempotencyKey: idempotencyKey))
    }

    // MARK: - Walking the chain

    /// Starts the walk with the scenario's input.
    func start(with input: some Sendable) {
        schedule { self.proceed(at: 0, with: input) }
    }

    /// Hands the value of the link at `position` to the next link.
    func pass<Value: Sendable>(value: Value, after position: Int) {
        schedule { self.proceed(at: position + 1, with: value) }
    }

    /// Hands the result of the link at `position` on: its value to the next link, its failure
    /// to the scenario's end.
    func pass<Value: Sendable>(_ result: Result<Value, any Error>, after position: Int) {
        switch result {
        case .success(let value): pass(value: value, after: position)
        case .failure(let error): end(failing: error)
        }
    }

    /// Runs the link at `position` (or finishes, past the last one), after the events waiting
    /// at a step boundary.
    private func proceed(at position: Int, with value: any Sendable) {
        let isEnd = position == links.count
        if let gate, isEnd || links[position].step != nil {
            gate.pass(before: isEnd ? nil : links[position].step, in: self) { self.enter(position, value) }
        } else {
            enter(position, value)
        }
    }

    private func enter(_ position: Int, _ value: any Sendable) {
        guard position < links.count else { return ending.succeed(erased: value) }
        links[position].body(value, self, position)
    }

    /// Runs `work` in constant stack depth across the run: leaves it to the loop when one is
    /// running, otherwise becomes the loop until no work is left.
    func schedule(_ work: @escaping @Sendable () -> Void) {
        let becomesLoop = loop.withLock { loop in
            guard !loop.isRunning else {
                assert(loop.pending == nil, "a scenario run was handed two pieces of work at once")
                loop.pending = work
                return false
            }
            loop.isRunning = true
            return true
        }
        guard becomesLoop else { return }
        var next: (@Sendable () -> Void)? = work
        while let current = next {
            current()
            next = loop.withLock { loop in
                guard let pending = loop.pending else {
                    loop.isRunning = false
                    return nil
                }
                loop.pending = nil
                return pending
            }
        }
    }

    /// Runs `then` after `delay` on the run's scheduler; when the run is cancelled first, the
    /// wait ends at once, the scheduled work is dropped and `cancelled` runs instead. Exactly one
    /// of them runs.
    func wait(
        _ delay: Duration, then: @escaping @Sendable () -> Void, cancelled: @escaping @Sendable () -> Void
    ) {
        let once = OnceFlag()
        let registration = LockedState<CancellationRegistration?>(nil)
        let work = environment.scheduler.schedule(after: delay) {
            guard once.claim() else { return }
            registration.withLock { $0 }?.cancel()
            then()
        }
        guard let token = cancellation else { return }
        let onCancel = token.onCancel {
            guard once.claim() else { return }
            work.cancel()
            cancelled()
        }
        registration.withLock { $0 = onCancel }
    }

    // MARK: - Attempts

    /// The number the next attempt of a step of this run gets; attempts follow one another,
    /// each launched after the one before has finished.
    func nextAttempt() -> Int {
        finishedAttempts.load(ordering: .acquiring) + 1
    }

    /// Whether this is the first finish of attempt `number`.
    func accept(attempt number: Int) -> Bool {
        finishedAttempts.compareExchange(expected: number - 1, desired: number, ordering: .acquiringAndReleasing)
            .exchanged
    }

    /// Notes that the operation of attempt `number` began its own attempt `inner` at `since`.
    func begin(inner: Int, of number: Int, at since: ContinuousClock.Instant?) {
        innerAttempt.withLock { $0 = InnerAttempt(of: number, attempt: inner, since: since) }
    }

    /// The latest attempt the operation of attempt `number` reported beginning, taken out;
    /// `nil` when it reported none.
    func takeInnerAttempt(of number: Int) -> InnerAttempt? {
        innerAttempt.withLock { latest in
            guard let inner = latest, inner.of == number else { return nil }
            latest = nil
            return inner
        }
    }
}

/// An attempt an operation made inside one launch of its step, as it reported it: the step's
/// failure then counts every attempt, and its last attempt is measured from its own start.
struct InnerAttempt {
    /// The run's attempt (the step's launch) it was made in.
    let of: Int
    /// The operation's own attempt, from 1.
    let attempt: Int
    let since: ContinuousClock.Instant?
}
