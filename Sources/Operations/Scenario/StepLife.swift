/// Where a step's result goes, exactly once: the hand-on to the next link of its chain.
typealias StepFinish<Output: Sendable> = @Sendable (Result<Output, any Error>) -> Void

/// One step's life within one scenario run: its attempts, retries and failure handling, each
/// relaunch run from the run's loop (``ScenarioRun/schedule(_:)``).
struct StepLife<Input: Sendable, Output: Sendable>: Sendable {
    let run: ScenarioRun
    let step: Step<Input, Output>
    let index: Int
    let finish: StepFinish<Output>

    var address: StepAddress { run.address(index: index, name: step.name) }

    /// Starts the step with `input`: launches its first attempt, or in a resumed run finishes
    /// it from its record.
    func start(_ input: Input) {
        guard let replay = run.environment.replay else { return launchAnew(input) }
        resume(input, replay: replay)
    }

    /// Launches the first attempt without asking a resumed run's journal: for a launch the
    /// journal cannot have recorded, such as the next poll of a polled step.
    func launchAnew(_ input: Input) {
        launch(attempt: 1, retriesLeft: step.retry.maxAttempts - 1, input: input)
    }

    /// In a resumed run: finishes the step from its record, or launches it with the input its
    /// record gives, repeating the key of an attempt left in doubt.
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
            return finish(.failure(StepFailure(scenario: run.name, step: step.name, attempt: 1, error: error)))
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

    /// Launches one attempt, with `key` when it repeats a request (an attempt in doubt, a
    /// retry), in a `loop` frame labelled `frame` when it is a retry or a relaunch.
    private func launch(
        attempt: Int, retriesLeft: Int, input: Input, key: IdempotencyKey? = nil, frame: String? = nil,
        resumed: Bool = false
    ) {
        if run.cancellation?.isCancelled == true {
            return fail(OpError.cancelled, attempt: attempt)
        }
        let trace = run.trace?.isEnabled == true ? run.trace : nil
        if let frame { trace?.openFrame(.loop, frame) }
        let framed = frame != nil && trace != nil
        let purity = step.purity
        let attemptKey: IdempotencyKey? = purity == .sideEffects ? (key ?? run.environment.makeIdempotencyKey()) : nil
        trace?.note(Self.launchNote(input, purity: purity, key: attemptKey))
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

    /// Takes a failed attempt to the retry policy, then to the failure handler.
    private func handle(
        _ error: any Error, attempt: Int, retriesLeft: Int, input: Input, startedAt: ContinuousClock.Instant?,
        key: IdempotencyKey?
    ) {
        // A halted run launches nothing more: no retry, no handler's relaunch or recovery.
        if error.haltsRun { return fail(error, attempt: attempt) }
        let policy = step.retry
        let attemptsSoFar = policy.maxAttempts - retriesLeft
        let worthRetrying = policy.retries(after: attemptsSoFar, of: error)
        let mayRelaunch = step.purity.relaunchesFreely || policy.relaunchesSideEffects
        if worthRetrying, mayRelaunch, run.cancellation?.isCancelled != true {
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
        let note =
            worthRetrying && !mayRelaunch
            ? "not retried: \(step.name) has side effects and its retry policy does not relaunch them" : nil
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
                relaunch(
                    attempt: attempt + 1, retriesLeft: policy.maxAttempts - 1, input: newInput,
                    key: isSameValue(newInput, input) ? key : nil, frame: frame)
            case .recover(let output):
                run.report(.stepSucceeded, address: address, attempt: attempt, value: output)
                finish(.success(output))
            case .fail:
                fail(error, attempt: attempt, note: note)
            case .stop(let reason):
                fail(reason, attempt: attempt)
            }
        }
    }

    /// Ends the step with `output`, remembering its undo, if it has one, for the run.
    private func succeed(_ output: Output, input: Input) {
        if let undo = step.pendingUndo(input: input, output: output, address: address) {
            run.remember(undo)
        }
        finish(.success(output))
    }

    private func fail(_ error: any Error, attempt: Int, note: String? = nil) {
        if let trace = run.trace, trace.isEnabled {
            trace.note(Self.stopNote(step: step.name, attempt: attempt, error: error, note: note))
        }
        run.noteFailure(at: address)
        finish(.failure(StepFailure(scenario: run.name, step: step.name, attempt: attempt, error: error, note: note)))
    }

    /// Launches another attempt from the run's loop, not nested inside the last one.
    private func relaunch(attempt: Int, retriesLeft: Int, input: Input, key: IdempotencyKey?, frame: String) {
        run.schedule {
            launch(attempt: attempt, retriesLeft: retriesLeft, input: input, key: key, frame: frame)
        }
    }

    // MARK: - Notes on the scenario's lifeline

    // They answer what the arrows alone do not: what value a step was handed, whether it may be
    // launched again freely, which key stands for its attempt, why the run stopped. Built from
    // redacted forms only (`TraceLabel.describe`, `IdempotencyKey.redacted`): no secret in clear.

    /// `phoneToken sim…vMcE` over `side effects, key idk…9f3a`: the value named after its type,
    /// which the launch arrow does not show.
    private static func launchNote(_ input: Input, purity: Purity, key: IdempotencyKey?) -> String {
        let effect = key.map { "\(purity), key \($0.redacted)" } ?? purity.description
        guard let value = TraceLabel.describe(input) else { return effect }
        let name = TraceLabel.valueName(of: Input.self)
        let passed = value == name ? name : "\(name) \(value)"
        return "\(passed)\n\(effect)"
    }

    /// `stopped: CodeOp failed after 3 attempts: wrong code, 0 left`.
    private static func stopNote(step: String, attempt: Int, error: any Error, note: String?) -> String {
        if error.isCancellation { return "stopped: cancelled during \(step)" }
        let attempts = attempt == 1 ? "" : " after \(attempt) attempts"
        // A nested scenario's failure reads `Verify: broken` (``StepFailure/traceLabel``).
        let reason = TraceLabel.describe(error) ?? "error"
        return "stopped: \(step) failed\(attempts): \(reason)" + (note.map { " (\($0))" } ?? "")
    }
}

/// Whether two launch values are provably the same request's value (equal, and `Equatable`):
/// a handler's relaunch with it keeps its idempotency key.
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
