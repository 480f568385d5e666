import Synchronization

/// One launch of a scenario: walks the chain's links, holds what its steps share and guards
/// each step's attempts against a second finish.
///
/// Constant stack depth: every hand-on to the next link and every relaunch goes through
/// ``schedule(_:)``, which leaves the work to the loop further down the stack when there is
/// one. A chain of synchronous operations still finishes before the launch returns.
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
    private let gate: BoundaryGate?
    private let loop = LockedState(Loop())
    /// How many attempts have finished: a finish is accepted only for the next one, so an
    /// operation that calls `onFinish` twice cannot advance the scenario twice.
    private let finishedAttempts = Atomic<Int>(0)
    let undoing = Mutex(Undoing())
    /// The latest attempt the running step's operation reported making inside its launch, in
    /// the run's attempt `of` (``OpContext/reportRetry(of:after:took:retryingIn:purity:)``): the
    /// step's failure counts every attempt, and its last one is measured from its own start.
    private let innerAttempt = Mutex<InnerAttempt?>(nil)
    typealias InnerAttempt = (of: Int, attempt: Int, since: ContinuousClock.Instant?)

    private struct Loop {
        var isRunning = false
        /// One slot: a run's links and attempts follow one another.
        var pending: (@Sendable () -> Void)?
    }

    init(
        name: String, context: OpContext<Void>, base: StepAddress, startedAt: ContinuousClock.Instant?,
        links: [ChainLink], ending: any ScenarioEnding, gate: BoundaryGate?
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
    /// Without an observer, nothing reads step addresses or times.
    var isObserved: Bool { environment.observer != nil }
    var cancellation: CancellationToken? { context.cancellation }
    var trace: TraceScope? { context.trace }
    /// Now, for a duration an observer reads: the clock is read only when somebody observes.
    var now: ContinuousClock.Instant? { Self.start(in: environment) }

    static func start(in environment: OpEnvironment) -> ContinuousClock.Instant? {
        environment.observer != nil ? environment.scheduler.now : nil
    }

    func address(index: Int, name: String) -> StepAddress {
        base.appending(index: index, name: name)
    }

    /// The context of an attempt of step `index`: the scenario's, with the step's scope and key.
    func context<Input: Sendable>(
        _ input: Input, step index: Int, name: String, attempt: Int, key: IdempotencyKey?, resumesEarlierRun: Bool
    ) -> OpContext<Input> {
        var step = context.with(input: input)
        step.scope = ScenarioScope(
            run: self, index: index, name: name, attempt: attempt, resumesEarlierRun: resumesEarlierRun)
        step.idempotencyKey = key
        return step
    }

    /// The context of what an event handler launches: no replay and no place in the run, as a
    /// reaction is no step; what it launches is told to `observer` (a ``ReactionRecorder``).
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

    /// For a caller that holds the run's parts rather than the run (the scenario's own finish).
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

    func start(with input: some Sendable) {
        schedule { self.proceed(at: 0, with: input) }
    }

    /// Hands the result of the link at `position` to the next link, or its failure to the end.
    func pass<Value: Sendable>(_ result: Result<Value, any Error>, after position: Int) {
        switch result {
        case .success(let value): schedule { self.proceed(at: position + 1, with: value) }
        case .failure(let error): end(failing: error)
        }
    }

    /// Runs the link at `position` (or finishes), after the events waiting at a step boundary.
    private func proceed(at position: Int, with value: any Sendable) {
        let isEnd = position == links.count
        if let gate, isEnd || links[position].step != nil {
            gate(isEnd ? nil : links[position].step, self) { self.enter(position, value) }
        } else {
            enter(position, value)
        }
    }

    private func enter(_ position: Int, _ value: any Sendable) {
        guard position < links.count else { return ending.succeed(erased: value) }
        links[position].body(value, self, position)
    }

    /// Leaves `work` to the loop when one is running, otherwise becomes the loop.
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

    /// Runs `then` after `delay`, or `cancelled` at once when the run is cancelled first.
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

    /// Attempts follow one another, each launched after the one before has finished.
    func nextAttempt() -> Int {
        finishedAttempts.load(ordering: .acquiring) + 1
    }

    func accept(attempt number: Int) -> Bool {
        finishedAttempts.compareExchange(expected: number - 1, desired: number, ordering: .acquiringAndReleasing)
            .exchanged
    }

    func begin(inner: Int, of number: Int, at since: ContinuousClock.Instant?) {
        innerAttempt.withLock { $0 = (number, inner, since) }
    }

    func takeInnerAttempt(of number: Int) -> InnerAttempt? {
        innerAttempt.withLock { latest in
            guard let inner = latest, inner.of == number else { return nil }
            latest = nil
            return inner
        }
    }
}
