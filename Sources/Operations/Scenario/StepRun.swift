import Synchronization

/// One step's life within one scenario run: its attempts, retries and failure handling.
///
/// It guards each attempt's finish with an atomic counter, so an operation that calls
/// `onFinish` twice cannot advance the scenario twice.
@usableFromInline
final class StepRun<Input: Sendable, Output: Sendable>: Sendable {
    private let step: Step<Input, Output>
    private let address: StepAddress
    private let context: OpContext<Input>
    private let run: ScenarioRun
    private let onFinish: OnFinish<Output>
    /// The number of the last attempt whose finish was accepted.
    private let finishedAttempts = Atomic<Int>(0)

    private init(
        step: Step<Input, Output>, address: StepAddress, context: OpContext<some Sendable>, run: ScenarioRun,
        onFinish: @escaping OnFinish<Output>, input: Input
    ) {
        self.step = step
        self.address = address
        var stepContext = context.with(input: input)
        stepContext.scope = ScenarioScope(address: address)
        self.context = stepContext
        self.run = run
        self.onFinish = onFinish
    }

    @usableFromInline
    static func start(
        _ step: Step<Input, Output>, index: Int, input: Input, context: OpContext<some Sendable>, run: ScenarioRun,
        onFinish: @escaping OnFinish<Output>
    ) {
        let address = run.address(index: index, name: step.name)
        if let replay = run.environment.replay {
            do {
                if let output = try replay.recordedOutput(at: address, as: Output.self) {
                    run.report(.stepReplayed, address: address, value: output)
                    onFinish(.success(output))
                    return
                }
            } catch {
                onFinish(.failure(StepFailure(scenario: run.name, step: step.name, attempt: 0, error: error)))
                return
            }
        }
        let stepRun = StepRun(
            step: step, address: address, context: context, run: run, onFinish: onFinish, input: input)
        stepRun.launch(attempt: 1, retriesLeft: step.retry.maxAttempts - 1, input: input)
    }

    private func launch(attempt: Int, retriesLeft: Int, input: Input) {
        if context.cancellation?.isCancelled == true {
            return fail(OpError.cancelled, attempt: attempt)
        }
        var attemptContext = context
        attemptContext.input = input
        run.report(.stepLaunched, address: address, attempt: attempt, value: input)
        let startedAt = run.now
        step.launchNew(attemptContext) { result in
            guard self.accept(attempt) else {
                self.run.environment.diagnostics.report(
                    OpDiagnostic(kind: .finishedTwice, operation: self.step.name))
                return
            }
            switch result {
            case .success(let output):
                self.run.report(.stepSucceeded, address: self.address, attempt: attempt, value: output, since: startedAt)
                self.onFinish(.success(output))
            case .failure(let error):
                self.handle(error, attempt: attempt, retriesLeft: retriesLeft, input: input, startedAt: startedAt)
            }
        }
    }

    private func accept(_ attempt: Int) -> Bool {
        finishedAttempts.compareExchange(expected: attempt - 1, desired: attempt, ordering: .acquiringAndReleasing)
            .exchanged
    }

    private func handle(
        _ error: any Error, attempt: Int, retriesLeft: Int, input: Input, startedAt: ContinuousClock.Instant?
    ) {
        let policy = step.retry
        let attemptsSoFar = policy.maxAttempts - retriesLeft
        if retriesLeft > 0, context.cancellation?.isCancelled != true,
            policy.allowsRetry(after: attemptsSoFar, of: error, purity: step.purity)
        {
            let delay = policy.backoff.delay(beforeRetry: attemptsSoFar, random: run.environment.random())
            run.report(
                .stepFailed(error, willRetry: true, delay: delay), address: address, attempt: attempt, since: startedAt)
            let next: @Sendable () -> Void = { self.launch(attempt: attempt + 1, retriesLeft: retriesLeft - 1, input: input) }
            if delay <= .zero {
                next()
            } else {
                run.environment.scheduler.schedule(after: delay, next)
            }
            return
        }
        run.report(.stepFailed(error, willRetry: false, delay: nil), address: address, attempt: attempt, since: startedAt)
        guard let handler = step.failureHandler, !error.isCancellation else {
            return fail(error, attempt: attempt)
        }
        let info = StepFailureInfo(step: step.name, attempt: attempt, error: error, input: input)
        let decided = OnceFlag()
        handler(info) { decision in
            guard decided.claim() else { return }
            switch decision {
            case .relaunch(let newInput):
                // A handler's relaunch is a fresh start for the retry budget.
                self.launch(attempt: attempt + 1, retriesLeft: policy.maxAttempts - 1, input: newInput)
            case .recover(let output):
                self.run.report(.stepSucceeded, address: self.address, attempt: attempt, value: output)
                self.onFinish(.success(output))
            case .fail:
                self.fail(error, attempt: attempt)
            }
        }
    }

    private func fail(_ error: any Error, attempt: Int) {
        onFinish(.failure(StepFailure(scenario: run.name, step: step.name, attempt: attempt, error: error)))
    }
}
