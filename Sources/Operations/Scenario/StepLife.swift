import Synchronization

/// What a step's result goes to, given with the launch it belongs to: a scenario makes one per
/// link when it is built (the hand-on to the next link) and reuses it in every launch, so a
/// step's launch allocates no closure for it.
@usableFromInline
typealias StepFinish<ScenarioInput: Sendable, Output: Sendable> =
    @Sendable (Result<Output, any Error>, ChainLaunch<ScenarioInput>) -> Void

/// One step's life within one scenario run: its attempts, retries and failure handling.
///
/// It guards each attempt's finish with an atomic counter, so an operation that calls
/// `onFinish` twice cannot advance the scenario twice.
///
/// It is also the extras of its operation's context — the scenario's token, deadline and trace
/// with the step's own scope (see ``ContextExtras``) — so a step allocates one object for both.
///
/// The launch path is `@inlinable`: it is specialised where the scenario is built (inside
/// ``ScenarioBuilder/then(_:)``), so a launch looks up no generic metadata for `StepRun`,
/// `Step`, `OpContext` or `Result`. Retries and failure handling stay out of line.
@usableFromInline
final class StepRun<ScenarioInput: Sendable, Input: Sendable, Output: Sendable>: ContextExtras, @unchecked Sendable {
    @usableFromInline let step: Step<Input, Output>
    /// The step's position in its scenario.
    @usableFromInline let index: Int
    /// The step's input. The step's context is kept as its parts rather than as an
    /// `OpContext<Input>`: the class's deinitializer is unspecialised, and a field of a generic
    /// struct type makes it look up that type's metadata on every step of every run.
    @usableFromInline let stepInput: Input
    /// The scenario's launch: its context's environment, its run, where failures end it.
    @usableFromInline let launch: ChainLaunch<ScenarioInput>
    @usableFromInline let onFinish: StepFinish<ScenarioInput, Output>
    /// The step's context, as its operation is launched with it: this object is its extras.
    @inlinable var context: OpContext<Input> {
        OpContext(input: stepInput, storedEnvironment: launch.storedEnvironment, extras: self)
    }
    /// The scenario's trace scope, `nil` when tracing is off.
    @inlinable var traceScope: TraceScope? { trace?.scope }
    /// The number of the last attempt whose finish was accepted.
    private let finishedAttempts = Atomic<Int>(0)
    /// The relaunch trampoline: 0 idle, 1 a relaunch loop is inside a launch, 2 that launch
    /// finished synchronously and asked for another one (in ``pendingLaunch``).
    private let trampoline = Atomic<Int>(0)
    /// The next attempt a synchronous re-entry asked for; written before `trampoline` turns 2
    /// and read after, so the atomic orders every access. A closure rather than a tuple of the
    /// attempt's values: a field whose type involves `Input` makes the class's (unspecialised)
    /// deinitializer look up generic metadata on every step of every run.
    private nonisolated(unsafe) var pendingLaunch: (@Sendable () -> Void)?

    @usableFromInline var address: StepAddress { launch.address(index: index, name: step.name) }

    @inlinable
    init(
        step: Step<Input, Output>, index: Int, input: Input, launch: ChainLaunch<ScenarioInput>,
        onFinish: @escaping StepFinish<ScenarioInput, Output>
    ) {
        self.step = step
        self.index = index
        self.stepInput = input
        self.launch = launch
        self.onFinish = onFinish
        // The scenario's parts with the step's scope, read from the parts directly: a copy of
        // the scenario's context would retain and release its environment and its extras.
        let parent = launch.extras
        super.init(
            cancellation: parent?.cancellation, deadline: parent?.deadline, scope: nil, trace: parent?.trace,
            idempotencyKey: parent?.idempotencyKey)
    }

    /// The step's scope, made when read: few runs read it (an observer, a journal, a nested
    /// scenario), and stored, it retained the run's address and the step's name for every step.
    @usableFromInline override var scope: ScenarioScope? { launch.scope(index: index, name: step.name) }

    @inlinable
    static func start(
        _ step: Step<Input, Output>, index: Int, input: Input, launch: ChainLaunch<ScenarioInput>,
        onFinish: @escaping StepFinish<ScenarioInput, Output>
    ) {
        // The flag first: reading the optional existential copies it through its value witnesses.
        if launch.environment.isReplaying, let replay = launch.environment.replay {
            return resume(step, index: index, input: input, launch: launch, replay: replay, onFinish: onFinish)
        }
        StepRun(step: step, index: index, input: input, launch: launch, onFinish: onFinish)
            .launchFirst(resumedKey: nil)
    }

    /// Starts the step in a resumed run: finishes it from its record (a replayed output, or the
    /// error that keeps it from launching), or launches it with the input its record gives,
    /// repeating the key of an attempt left in doubt. Out of line: only a resumed run comes here.
    @usableFromInline
    static func resume(
        _ step: Step<Input, Output>, index: Int, input: Input, launch: ChainLaunch<ScenarioInput>,
        replay: any StepReplaying, onFinish: @escaping StepFinish<ScenarioInput, Output>
    ) {
        let address = launch.address(index: index, name: step.name)
        let key: IdempotencyKey?
        do {
            switch try replay.resumption(at: address, as: Output.self, purity: step.purity) {
            case .replay(let output):
                launch.report(.stepReplayed, address: address, value: output)
                return onFinish(.success(output), launch)
            case .launch(let resumedKey):
                key = resumedKey
            }
        } catch {
            let failure = StepFailure(scenario: launch.name, step: step.name, attempt: 1, error: error)
            return onFinish(.failure(failure), launch)
        }
        let input = replay.resumedInput(at: address, current: input) ?? input
        // The recorded key names the request of the recorded value; another value is another
        // request (its chain handed it something new), with a new key.
        let resumedKey = key.flatMap { replay.repeatsRecordedRequest(at: address, input: input) ? $0 : nil }
        StepRun(step: step, index: index, input: input, launch: launch, onFinish: onFinish)
            .launchFirst(resumedKey: resumedKey)
    }

    /// Launches the first attempt. The usual one — of a step free of side effects, in a run
    /// nobody observes — finishes through a closure that captures only this object, which needs
    /// no allocation: the attempt's other facts are known (attempt 1, the whole retry budget,
    /// the step's input, no key, no start time, no frame). Any other goes the general way.
    @inlinable
    func launchFirst(resumedKey: IdempotencyKey?) {
        guard step.purity != .sideEffects, !launch.isObserved else {
            return launch(attempt: 1, retriesLeft: step.maxAttempts - 1, input: stepInput, key: resumedKey)
        }
        if cancellation?.isCancelled == true { return fail(OpError.cancelled, attempt: 1) }
        if let traceScope, traceScope.isEnabled { noteLaunch(stepInput, key: nil, in: traceScope) }
        step.launchNew(context) { [self] result in
            attemptFinished(
                result, attempt: 1, retriesLeft: step.maxAttempts - 1, input: stepInput, startedAt: nil, key: nil,
                framed: false)
        }
    }

    /// Launches one attempt. A step with side effects gets an idempotency key for it: `key`
    /// when the attempt repeats one whose outcome is unknown (a resumed attempt in doubt, a
    /// retry after a lost answer), a new one otherwise.
    ///
    /// A retry or a relaunch passes `frame`, the reason it happens: the attempt is traced inside
    /// a `loop` frame with that label, closed when the attempt finishes.
    @inlinable
    func launch(attempt: Int, retriesLeft: Int, input: Input, key: IdempotencyKey? = nil, frame: String? = nil) {
        if cancellation?.isCancelled == true {
            return fail(OpError.cancelled, attempt: attempt)
        }
        let framed = frame.map { openFrame($0) } ?? false
        let purity = step.purity
        let attemptKey: IdempotencyKey? =
            purity == .sideEffects ? (key ?? launch.environment.makeIdempotencyKey()) : nil
        if let traceScope, traceScope.isEnabled { noteLaunch(input, key: attemptKey, in: traceScope) }
        if launch.isObserved {
            launch.report(
                .stepLaunched, address: address, attempt: attempt, value: input, purity: purity,
                idempotencyKey: attemptKey)
            // The launch line with its key is on disk, or the run stops here (`RunHalted`).
            if let halt = launch.environment.observer?.haltingError {
                if framed { traceScope?.closeFrame() }
                return fail(RunHalted(halt), attempt: attempt)
            }
        }
        let startedAt = launch.now
        let finish: OnFinish<Output> = { result in
            self.attemptFinished(
                result, attempt: attempt, retriesLeft: retriesLeft, input: input, startedAt: startedAt,
                key: attemptKey, framed: framed)
        }
        // The first attempt runs with the step's context as it is; a retry, a relaunch with
        // new input or an attempt with a key gets a copy carrying them.
        if attempt == 1 && attemptKey == nil {
            step.launchNew(context, finish)
        } else {
            var attemptContext = context
            attemptContext.input = input
            attemptContext.idempotencyKey = attemptKey
            step.launchNew(attemptContext, finish)
        }
    }

    /// Takes the finish of attempt `attempt`: drops a second one, hands a success on and a
    /// failure to the retry policy and the failure handler.
    @inlinable
    func attemptFinished(
        _ result: Result<Output, any Error>, attempt: Int, retriesLeft: Int, input: Input, startedAt: FrozenInstant?,
        key: IdempotencyKey?, framed: Bool
    ) {
        guard accept(attempt) else {
            launch.environment.diagnostics.report(OpDiagnostic(kind: .finishedTwice, operation: step.name))
            return
        }
        if framed { traceScope?.closeFrame() }
        switch result {
        case .success(let output):
            if launch.isObserved {
                launch.report(.stepSucceeded, address: address, attempt: attempt, value: output, since: startedAt)
            }
            onFinish(.success(output), launch)
        case .failure(let error):
            handle(error, attempt: attempt, retriesLeft: retriesLeft, input: input, startedAt: startedAt, key: key)
        }
    }

    /// Notes what the attempt is handed, its purity and its key; out of line, since only a
    /// traced launch needs it.
    @usableFromInline
    func noteLaunch(_ input: Input, key: IdempotencyKey?, in trace: TraceScope) {
        trace.note(StepTraceNotes.launching(input, purity: step.purity, key: key))
    }

    /// Opens the frame of a retried or relaunched attempt; whether one was opened (tracing on).
    @usableFromInline
    func openFrame(_ label: String) -> Bool {
        guard let trace = traceScope, trace.isEnabled else { return false }
        trace.openFrame(.loop, label)
        return true
    }

    @usableFromInline
    func accept(_ attempt: Int) -> Bool {
        finishedAttempts.compareExchange(expected: attempt - 1, desired: attempt, ordering: .acquiringAndReleasing)
            .exchanged
    }

    @usableFromInline
    func handle(
        _ error: any Error, attempt: Int, retriesLeft: Int, input: Input, startedAt: FrozenInstant?,
        key: IdempotencyKey?
    ) {
        // A halted run launches nothing more: no retry, no handler's relaunch or recovery.
        if error.haltsRun { return fail(error, attempt: attempt) }
        let policy = step.retry
        let attemptsSoFar = policy.maxAttempts - retriesLeft
        if retriesLeft > 0, cancellation?.isCancelled != true,
            policy.allowsRetry(after: attemptsSoFar, of: error, purity: step.purity)
        {
            let delay = policy.backoff.delay(beforeRetry: attemptsSoFar, random: launch.environment.random())
            launch.report(
                .stepFailed(error, willRetry: true, delay: delay), address: address, attempt: attempt, since: startedAt)
            // The same input: the same request, whatever this attempt's error said. An earlier
            // attempt may have acted and lost its answer, so the key is never freed here.
            let nextKey = key
            let frame = "retry \(attempt + 1) of \(policy.maxAttempts): \(TraceLabel.describe(error) ?? "error")"
            let next: @Sendable () -> Void = {
                self.relaunch(
                    attempt: attempt + 1, retriesLeft: retriesLeft - 1, input: input, key: nextKey, frame: frame)
            }
            if delay <= .zero {
                next()
            } else {
                waitForRetry(delay, attempt: attempt, then: next)
            }
            return
        }
        let note = declinedRetryNote(error, attemptsSoFar: attemptsSoFar)
        launch.report(
            .stepFailed(error, willRetry: false, delay: nil), address: address, attempt: attempt, since: startedAt)
        guard let handler = step.failureHandler, !error.isCancellation else {
            return fail(error, attempt: attempt, note: note)
        }
        let token = cancellation
        let info = StepFailureInfo(step: step.name, attempt: attempt, error: error, input: input, cancellation: token)
        let decided = OnceFlag()
        // Cancellation while the handler decides (asking the person) ends the step at once; the
        // handler learns of it through `info.cancellation` and closes its screen, and its late
        // decision is dropped.
        let registration = LockedState<CancellationRegistration?>(nil)
        if let token {
            let cancelled = token.onCancel { [self] in
                guard decided.claim() else { return }
                fail(OpError.cancelled, attempt: attempt)
            }
            registration.withLock { $0 = cancelled }
        }
        handler(info) { decision in
            guard decided.claim() else { return }
            registration.withLock { $0 }?.cancel()
            switch decision {
            case .relaunch(let newInput, let reason):
                // A handler's relaunch is a fresh start for the retry budget, and with a new value
                // a new request with a new key; with the same value, the same request.
                let frame = reason ?? "relaunched after \(TraceLabel.describe(error) ?? "error")"
                let sameRequest = SameValue.holds(newInput, input)
                self.relaunch(
                    attempt: attempt + 1, retriesLeft: policy.maxAttempts - 1, input: newInput,
                    key: sameRequest ? key : nil, frame: frame)
            case .recover(let output):
                self.launch.report(.stepSucceeded, address: self.address, attempt: attempt, value: output)
                self.onFinish(.success(output), self.launch)
            case .fail:
                self.fail(error, attempt: attempt, note: note)
            }
        }
    }

    @usableFromInline
    func fail(_ error: any Error, attempt: Int, note: String? = nil) {
        if let trace = traceScope, trace.isEnabled {
            trace.note(StepTraceNotes.stopped(step: step.name, attempt: attempt, error: error, note: note))
        }
        onFinish(
            .failure(StepFailure(scenario: launch.name, step: step.name, attempt: attempt, error: error, note: note)),
            launch)
    }

    /// Why the policy did not retry a transient error it would otherwise have retried: the step
    /// has side effects and the policy does not relaunch them. `nil` when that is not the reason.
    private func declinedRetryNote(_ error: any Error, attemptsSoFar: Int) -> String? {
        let policy = step.retry
        guard policy.declinesOnlyForSideEffects(after: attemptsSoFar, of: error, purity: step.purity) else {
            return nil
        }
        return "not retried: \(step.name) has side effects and its retry policy does not relaunch them"
    }

    /// Launches another attempt in constant stack depth. An attempt that finishes inside its own
    /// launch and asks for another (an immediate retry, a handler's synchronous relaunch) leaves
    /// it with the loop below instead of nesting a launch per attempt.
    private func relaunch(
        attempt: Int, retriesLeft: Int, input: Input, key: IdempotencyKey? = nil, frame: String? = nil
    ) {
        pendingLaunch = {
            self.launch(attempt: attempt, retriesLeft: retriesLeft, input: input, key: key, frame: frame)
        }
        // A loop further down this stack (or one just returning on another thread) takes it.
        if trampoline.compareExchange(expected: 1, desired: 2, ordering: .acquiringAndReleasing).exchanged { return }
        while let next = pendingLaunch {
            pendingLaunch = nil
            trampoline.store(1, ordering: .releasing)
            next()
            // Still 1: the attempt runs on asynchronously and will call `relaunch` afresh.
            if trampoline.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged {
                return
            }
            trampoline.store(0, ordering: .releasing)
        }
    }

    /// Waits out a backoff without holding the run hostage: cancellation ends the wait at once,
    /// drops the scheduled retry and finishes the step as cancelled.
    private func waitForRetry(_ delay: Duration, attempt: Int, then next: @escaping @Sendable () -> Void) {
        let once = OnceFlag()
        let registration = LockedState<CancellationRegistration?>(nil)
        let work = launch.environment.scheduler.schedule(after: delay) {
            guard once.claim() else { return }
            registration.withLock { $0 }?.cancel()
            next()
        }
        guard let token = cancellation else { return }
        let cancelled = token.onCancel { [self] in
            guard once.claim() else { return }
            work.cancel()
            fail(OpError.cancelled, attempt: attempt + 1)
        }
        registration.withLock { $0 = cancelled }
    }

}
