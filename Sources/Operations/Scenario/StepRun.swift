import Synchronization

/// One step's life within one scenario run: its attempts, retries and failure handling.
///
/// It guards each attempt's finish with an atomic counter, so an operation that calls
/// `onFinish` twice cannot advance the scenario twice.
///
/// The launch path is `@inlinable`: it is specialised where the scenario is built (inside
/// ``ScenarioBuilder/then(_:)``), so a launch looks up no generic metadata for `StepRun`,
/// `Step`, `OpContext` or `Result`. Retries and failure handling stay out of line.
@usableFromInline
final class StepRun<Input: Sendable, Output: Sendable>: Sendable {
    @usableFromInline let step: Step<Input, Output>
    /// The step's place in the run, built only when something reads it (see ``ScenarioScope``).
    @usableFromInline let scope: ScenarioScope
    /// The step's context, kept as its three parts rather than as an `OpContext<Input>`: the
    /// class's deinitializer is unspecialised, and a field of a generic struct type makes it
    /// look up that type's metadata on every step of every run.
    @usableFromInline let stepInput: Input
    /// The context's environment as it stores it (`nil` for the default one).
    @usableFromInline let storedEnvironment: OpEnvironment?
    @usableFromInline let extras: ContextExtras?
    /// The step's context, as its operation is launched with it.
    @inlinable var context: OpContext<Input> {
        OpContext(input: stepInput, storedEnvironment: storedEnvironment, extras: extras)
    }
    @usableFromInline let run: ScenarioRun
    @usableFromInline let onFinish: OnFinish<Output>
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

    @usableFromInline var address: StepAddress { scope.address }

    @inlinable
    init(
        step: Step<Input, Output>, scope: ScenarioScope, context: OpContext<some Sendable>, run: ScenarioRun,
        onFinish: @escaping OnFinish<Output>, input: Input
    ) {
        self.step = step
        self.scope = scope
        self.stepInput = input
        self.storedEnvironment = context.storedEnvironment
        self.extras = ContextExtras(context.extras, scope: scope)
        self.run = run
        self.onFinish = onFinish
    }

    @inlinable
    static func start(
        _ step: Step<Input, Output>, index: Int, input: Input, context: OpContext<some Sendable>, run: ScenarioRun,
        onFinish: @escaping OnFinish<Output>
    ) {
        let scope = run.scope(index: index, name: step.name)
        var resumedKey: IdempotencyKey?
        var input = input
        if let replay = run.environment.replay {
            switch resumption(step, at: scope.address, run: run) {
            case .finished(let result): return onFinish(result)
            case .launch(let key):
                resumedKey = key
                input = replay.resumedInput(at: scope.address, current: input) ?? input
            }
        }
        let stepRun = StepRun(
            step: step, scope: scope, context: context, run: run, onFinish: onFinish, input: input)
        stepRun.launch(attempt: 1, retriesLeft: step.maxAttempts - 1, input: input, key: resumedKey)
    }

    /// What a resumed run does at this step: finish it from its record (a replayed output, or
    /// the error that keeps it from launching), or launch it, repeating the key of an attempt
    /// left in doubt.
    @usableFromInline
    enum Resumed {
        case finished(Result<Output, any Error>)
        case launch(IdempotencyKey?)
    }

    @usableFromInline
    static func resumption(_ step: Step<Input, Output>, at address: StepAddress, run: ScenarioRun) -> Resumed {
        guard let replay = run.environment.replay else { return .launch(nil) }
        do {
            switch try replay.resumption(at: address, as: Output.self, purity: step.purity) {
            case .replay(let output):
                run.report(.stepReplayed, address: address, value: output)
                return .finished(.success(output))
            case .launch(let key):
                return .launch(key)
            }
        } catch {
            return .finished(.failure(StepFailure(scenario: run.name, step: step.name, attempt: 1, error: error)))
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
        if context.cancellation?.isCancelled == true {
            return fail(OpError.cancelled, attempt: attempt)
        }
        let framed = frame.map { openFrame($0) } ?? false
        let purity = step.purity
        let attemptKey: IdempotencyKey? = purity == .sideEffects ? (key ?? run.environment.makeIdempotencyKey()) : nil
        if let trace = context.trace, trace.isEnabled { noteLaunch(input, key: attemptKey, in: trace) }
        if run.isObserved {
            run.report(
                .stepLaunched, address: address, attempt: attempt, value: input, purity: purity,
                idempotencyKey: attemptKey)
        }
        let startedAt = run.now
        // The first attempt runs with the step's context as it is; a retry, a relaunch with
        // new input or an attempt with a key gets a copy carrying them.
        let launchNew = step.launchNew
        let finish: OnFinish<Output> = { result in
            guard self.accept(attempt) else {
                self.run.environment.diagnostics.report(
                    OpDiagnostic(kind: .finishedTwice, operation: self.step.name))
                return
            }
            if framed { self.context.trace?.closeFrame() }
            switch result {
            case .success(let output):
                if self.run.isObserved {
                    self.run.report(
                        .stepSucceeded, address: self.address, attempt: attempt, value: output, since: startedAt)
                }
                self.onFinish(.success(output))
            case .failure(let error):
                self.handle(
                    error, attempt: attempt, retriesLeft: retriesLeft, input: input, startedAt: startedAt,
                    key: attemptKey)
            }
        }
        if attempt == 1 && attemptKey == nil {
            launchNew(context, finish)
        } else {
            var attemptContext = context
            attemptContext.input = input
            attemptContext.idempotencyKey = attemptKey
            launchNew(attemptContext, finish)
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
        guard let trace = context.trace, trace.isEnabled else { return false }
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
        let policy = step.retry
        let attemptsSoFar = policy.maxAttempts - retriesLeft
        if retriesLeft > 0, context.cancellation?.isCancelled != true,
            policy.allowsRetry(after: attemptsSoFar, of: error, purity: step.purity)
        {
            let delay = policy.backoff.delay(beforeRetry: attemptsSoFar, random: run.environment.random())
            run.report(
                .stepFailed(error, willRetry: true, delay: delay), address: address, attempt: attempt, since: startedAt)
            // The same input after an answer that may have been lost: the repeat carries the same
            // key, so the backend answers it instead of acting twice.
            let nextKey = error.outcomeIsUncertain ? key : nil
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
        run.report(
            .stepFailed(error, willRetry: false, delay: nil), address: address, attempt: attempt, since: startedAt)
        guard let handler = step.failureHandler, !error.isCancellation else {
            return fail(error, attempt: attempt, note: note)
        }
        let token = context.cancellation
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
                // A handler's relaunch is a fresh start for the retry budget.
                let frame = reason ?? "relaunched after \(TraceLabel.describe(error) ?? "error")"
                self.relaunch(
                    attempt: attempt + 1, retriesLeft: policy.maxAttempts - 1, input: newInput, frame: frame)
            case .recover(let output):
                self.run.report(.stepSucceeded, address: self.address, attempt: attempt, value: output)
                self.onFinish(.success(output))
            case .fail:
                self.fail(error, attempt: attempt, note: note)
            }
        }
    }

    @usableFromInline
    func fail(_ error: any Error, attempt: Int, note: String? = nil) {
        if let trace = context.trace, trace.isEnabled {
            trace.note(StepTraceNotes.stopped(step: step.name, attempt: attempt, error: error, note: note))
        }
        onFinish(
            .failure(StepFailure(scenario: run.name, step: step.name, attempt: attempt, error: error, note: note)))
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
        let work = run.environment.scheduler.schedule(after: delay) {
            guard once.claim() else { return }
            registration.withLock { $0 }?.cancel()
            next()
        }
        guard let token = context.cancellation else { return }
        let cancelled = token.onCancel { [self] in
            guard once.claim() else { return }
            work.cancel()
            fail(OpError.cancelled, attempt: attempt + 1)
        }
        registration.withLock { $0 = cancelled }
    }

}
