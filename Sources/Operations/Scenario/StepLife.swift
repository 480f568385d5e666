/// Where a step's result goes, exactly once: the hand-on to the next link of its chain.
typealias StepFinish<Output: Sendable> = @Sendable (Result<Output, any Error>) -> Void

/// One step's life within one scenario run: its attempts, retries and failure handling.
///
/// The run guards each attempt's finish (``ScenarioRun/accept(attempt:)``) and runs each
/// relaunch from its loop (``ScenarioRun/schedule(_:)``), so any number of attempts takes
/// constant stack depth.
struct StepLife<Input: Sendable, Output: Sendable>: Sendable {
    let run: ScenarioRun
    let step: Step<Input, Output>
    /// The step's position in its scenario.
    let index: Int
    /// Where the step's result goes, exactly once.
    let destination: StepDestination<Output>

    /// Hands the step's output on, once.
    private func finish(succeeding output: Output) {
        switch destination {
        case .finishing(let finishing): finishing(.success(output))
        case .join(let join): join.branch(index, finished: .success(output), in: run)
        case .passingOn(let position): run.pass(value: output, after: position)
        }
    }

    /// Hands the step's failure on, once.
    private func finish(failing error: any Error) {
        switch destination {
        case .finishing(let finishing): finishing(.failure(error))
        case .join(let join): join.branch(index, finished: .failure(error), in: run)
        case .passingOn: run.end(failing: error)
        }
    }

    var address: StepAddress { run.address(index: index, name: step.name) }

    /// Starts the step with `input`: launches its first attempt, or in a resumed run finishes
    /// it from its record.
    func start(_ input: Input) {
        if let replay = run.environment.replay {
            return resume(input, replay: replay)
        }
        launch(attempt: 1, retriesLeft: step.retry.maxAttempts - 1, input: input)
    }

    /// Launches the step's first attempt with `input` without asking a resumed run's journal:
    /// for a launch the journal cannot have recorded, such as the next poll of a polled step.
    func launchAnew(_ input: Input) {
        launch(attempt: 1, retriesLeft: step.retry.maxAttempts - 1, input: input)
    }

    /// Starts the step in a resumed run: finishes it from its record (a replayed output, or the
    /// error that keeps it from launching), or launches it with the input its record gives,
    /// repeating the key of an attempt left in doubt.
    private func resume(_ input: Input, replay: any StepReplaying) {
        let address = address
        let key: IdempotencyKey?
        do {
            switch try replay.resumption(at: address, as: Output.self, purity: step.purity) {
            case .replay(let output):
                run.report(.stepReplayed, address: address, value: output)
                return succeed(output, input: input)
            case .launch(let resumedKey):
                key = resumedKey
            case .failAgain(let error):
                return fail(error, attempt: 1)
            }
        } catch {
            return finish(failing: StepFailure(scenario: run.name, step: step.name, attempt: 1, error: error))
        }
        let recorded = replay.resumedInput(at: address, current: input)
        let input = recorded ?? input
        // The recorded key names the request of the recorded value; another value is another
        // request (its chain handed it something new), with a new key.
        let resumedKey = key.flatMap { replay.repeatsRecordedRequest(at: address, input: input) ? $0 : nil }
        launch(
            attempt: 1, retriesLeft: step.retry.maxAttempts - 1, input: input, key: resumedKey, resumed: recorded != nil
        )
    }

    /// Launches one attempt. A step with side effects gets an idempotency key for it: `key`
    /// when the attempt repeats a request (a resumed attempt in doubt, a retry), a new one
    /// otherwise. A retry or a relaunch is traced inside a `loop` frame labelled `frame`, the
    /// reason it happens. `resumed` marks the first attempt of a step started again in a rerun
    /// (``ScenarioScope/resumesEarlierRun``).
    private func launch(
        attempt: Int, retriesLeft: Int, input: Input, key: IdempotencyKey? = nil, frame: String? = nil,
        resumed: Bool = false
    ) {
        if run.cancellation?.isCancelled == true {
            return fail(OpError.cancelled, attempt: attempt)
        }
        let framed = frame.map { openFrame($0) } ?? false
        let purity = step.purity
        let attemptKey: IdempotencyKey? = purity == .sideEffects ? (key ?? run.environment.makeIdempotencyKey()) : nil
        if let trace = run.trace, trace.isEnabled {
            trace.note(StepTraceNotes.launching(input, purity: purity, key: attemptKey))
        }
        if run.isObserved {
            run.report(
                .stepLaunched, address: address, attempt: attempt, value: input, purity: purity,
                idempotencyKey: attemptKey)
            // The launch line with its key is on disk, or the run stops here (`RunHalted`).
            if let halt = run.environment.observer?.haltingError {
                if framed { run.trace?.closeFrame() }
                return fail(RunHalted(halt), attempt: attempt)
            }
        }
        let startedAt = run.now
        let number = run.nextAttempt()
        // The first attempt of a step without a key of its own keeps the scenario's key, if it
        // has one; a retry, a relaunch or an attempt with a key carries its own.
        let contextKey = attempt == 1 && attemptKey == nil ? run.context.idempotencyKey : attemptKey
        let context = run.context(
            input, step: index, name: step.name, attempt: number, key: contextKey, resumesEarlierRun: resumed)
        step.launchNew(context) { result in
            guard run.accept(attempt: number) else {
                run.environment.diagnostics.report(OpDiagnostic(kind: .finishedTwice, operation: step.name))
                return
            }
            if framed { run.trace?.closeFrame() }
            // The operation's own retries inside this launch (``OpContext/reportRetry``) are
            // attempts of the step: its finish ends the last of them.
            let inner = run.takeInnerAttempt(of: number)
            let last = attempt + (inner?.attempt ?? 1) - 1
            let lastStartedAt = inner?.since ?? startedAt
            switch result {
            case .success(let output):
                if run.isObserved {
                    run.report(.stepSucceeded, address: address, attempt: last, value: output, since: lastStartedAt)
                }
                succeed(output, input: input)
            case .failure(let error):
                handle(
                    error, attempt: last, retriesLeft: retriesLeft, input: input, startedAt: lastStartedAt,
                    key: attemptKey)
            }
        }
    }

    /// Opens the frame of a retried or relaunched attempt; whether one was opened (tracing on).
    private func openFrame(_ label: String) -> Bool {
        guard let trace = run.trace, trace.isEnabled else { return false }
        trace.openFrame(.loop, label)
        return true
    }

    /// Takes a failed attempt to the retry policy, then to the failure handler.
    private func handle(
        _ error: any Error, attempt: Int, retriesLeft: Int, input: Input, startedAt: ContinuousClock.Instant?,
        key: IdempotencyKey?
    ) {
        // A halted run launches nothing more: no retry, no handler's relaunch or recovery.
        if error.haltsRun { return fail(error, attempt: attempt) }
        let policy = step.retry
        let attemptsSoFar = policy.maxAttempts - retriesLeft
        if retriesLeft > 0, run.cancellation?.isCancelled != true,
            policy.allowsRetry(after: attemptsSoFar, of: error, purity: step.purity)
        {
            let delay = policy.delay(beforeRetry: attemptsSoFar, after: error, random: run.environment.random())
            run.report(
                .stepFailed(error, willRetry: true, delay: delay), address: address, attempt: attempt, since: startedAt)
            // The same input: the same request, whatever this attempt's error said. An earlier
            // attempt may have acted and lost its answer, so the key is never freed here.
            let frame = "retry \(attempt + 1) of \(policy.maxAttempts): \(TraceLabel.describe(error) ?? "error")"
            let next: @Sendable () -> Void = {
                relaunch(attempt: attempt + 1, retriesLeft: retriesLeft - 1, input: input, key: key, frame: frame)
            }
            guard delay > .zero else { return next() }
            // Cancellation during the backoff ends the step at once, as cancelled.
            return run.wait(delay, then: next) { fail(OpError.cancelled, attempt: attempt + 1) }
        }
        let note = declinedRetryNote(error, attemptsSoFar: attemptsSoFar)
        run.report(
            .stepFailed(error, willRetry: false, delay: nil), address: address, attempt: attempt, since: startedAt)
        guard let handler = step.failureHandler, !error.isCancellation else {
            return fail(error, attempt: attempt, note: note)
        }
        let token = run.cancellation
        let info = StepFailureInfo(step: step.name, attempt: attempt, error: error, input: input, cancellation: token)
        let decided = OnceFlag()
        // Cancellation while the handler decides (asking the person) ends the step at once; the
        // handler learns of it through `info.cancellation` and closes its screen, and its late
        // decision is dropped.
        let registration = LockedState<CancellationRegistration?>(nil)
        if let token {
            let cancelled = token.onCancel {
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
                let sameRequest = isSameValue(newInput, input)
                relaunch(
                    attempt: attempt + 1, retriesLeft: policy.maxAttempts - 1, input: newInput,
                    key: sameRequest ? key : nil, frame: frame)
            case .recover(let output):
                run.report(.stepSucceeded, address: address, attempt: attempt, value: output)
                finish(succeeding: output)
            case .fail:
                fail(error, attempt: attempt, note: note)
            case .stop(let reason):
                fail(reason, attempt: attempt)
            }
        }
    }

    /// Ends the step with `output`, which its launch with `input` produced (or its record
    /// replays): a step with a compensation joins the run's steps to undo should a later one
    /// fail for good.
    private func succeed(_ output: Output, input: Input) {
        if let undo = step.pendingUndo(input: input, output: output, address: address) {
            run.remember(undo)
        }
        finish(succeeding: output)
    }

    /// Ends the step with `error`, noted on the scenario's lifeline.
    private func fail(_ error: any Error, attempt: Int, note: String? = nil) {
        if let trace = run.trace, trace.isEnabled {
            trace.note(StepTraceNotes.stopped(step: step.name, attempt: attempt, error: error, note: note))
        }
        run.noteFailure(at: address)
        finish(failing: StepFailure(scenario: run.name, step: step.name, attempt: attempt, error: error, note: note))
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

    /// Launches another attempt from the run's loop: an attempt that finished inside its own
    /// launch and asks for another (an immediate retry, a handler's synchronous relaunch) leaves
    /// it to the loop further down the stack instead of nesting a launch per attempt.
    private func relaunch(attempt: Int, retriesLeft: Int, input: Input, key: IdempotencyKey?, frame: String) {
        run.schedule {
            launch(attempt: attempt, retriesLeft: retriesLeft, input: input, key: key, frame: frame)
        }
    }
}

extension StepLife {
    /// A step whose result `finish` works on before handing it on.
    init(run: ScenarioRun, step: Step<Input, Output>, index: Int, then finish: @escaping StepFinish<Output>) {
        self.init(run: run, step: step, index: index, destination: .finishing(finish))
    }
}

/// Where a step's result goes: to a closure that works on it first, to the parallel step the
/// step is a branch of, or straight to the run after the link at a position.
enum StepDestination<Output: Sendable>: Sendable {
    case finishing(StepFinish<Output>)
    case join(any BranchJoin)
    case passingOn(after: Int)
}

/// Whether two launch values are provably the same request's value: of one `Equatable` type and
/// equal. A handler's relaunch with the value the step already had repeats the same request,
/// which keeps its idempotency key (see ``IdempotencyKey``); anything else is a new value.
private func isSameValue<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
    guard let equatable = lhs as? any Equatable else { return false }
    return equatable.isEqual(to: rhs)
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
