/// Durable waits: a scenario that waits for a time between steps, and a step polled until its
/// output says it is done.
///
/// A wait is a step of its own whose output, its deadline on the wall clock (``WaitDeadline``),
/// is journaled before the wait begins: a resumed run waits only what is left. The time goes by
/// on the environment's scheduler, so tests drive it with `OperationsTesting`'s `TestScheduler`.
extension ScenarioBuilder {
    /// Appends a wait of a fixed time; the value passes on unchanged.
    ///
    /// ```swift
    /// chain.then(Step(makeSendOp)).wait("CoolDown", for: .seconds(30)).then(Step(makeNextOp))
    /// ```
    ///
    /// `name` is the wait's step name in progress, journals and diagrams. A negative `duration`
    /// is a ``ScenarioDefinitionError``, reported when the scenario is launched.
    public consuming func wait(_ name: String, for duration: Duration) -> ScenarioBuilder<Input, Current> {
        let problem: ScenarioDefinitionError? =
            duration < .zero ? .negativeWait(step: name, seconds: duration.inSeconds) : nil
        return waiting(name, problem: problem) { _ in duration }
    }

    /// Appends a wait whose time is computed from the current value, e.g. the delay a backend
    /// asks for before an SMS code may be sent again; the value passes on unchanged.
    ///
    /// ```swift
    /// chain.wait("ResendDelay", for: \.resendDelay)
    /// ```
    ///
    /// A negative duration fails the step with ``WaitError/negativeDuration(step:seconds:)``
    /// before it waits.
    public consuming func wait(_ name: String, for duration: @escaping @Sendable (Current) -> Duration)
        -> ScenarioBuilder<Input, Current>
    {
        waiting(name, problem: nil, duration)
    }

    /// Appends a step that is launched again, after a wait of `interval`, until its output says
    /// it is done: a payment that settles later, a job that finishes on its own time.
    ///
    /// ```swift
    /// .then(Step(makePaymentStatusOp), repeatingEvery: .seconds(2), until: \.isSettled, atMost: 10)
    /// .then(Step(makeKYCStatusOp), repeatingEvery: .seconds(20 * 60), until: \.isDecided, atMost: 200,
    ///       givingUpAfter: .seconds(48 * 3_600))
    /// ```
    ///
    /// Each poll is an attempt of the step, journaled like any, and so is where the polling
    /// stands before each wait (``PollProgress``): a resumed run goes on from there. It waits
    /// only what is left of the interval it was killed in, counts its polls on across sessions
    /// (`atMost` bounds them all), and measures `limit` on the wall clock from the first poll
    /// of the first session. The step must be free to relaunch (pure or idempotent: a poll
    /// asks, it does not act).
    ///
    /// - Parameters:
    ///   - step: The step that polls: each launch is one poll.
    ///   - interval: The wait between two polls.
    ///   - done: Whether an output is the final one.
    ///   - polls: The most polls; when the last is still not done the step fails with
    ///     ``WaitError/stillNotDone(step:polls:)``.
    ///   - limit: How long the step may go on polling, from its first poll, across restarts; no
    ///     wait goes past it, and when the last poll made then is still not done the step
    ///     fails with ``WaitError/gaveUp(step:after:polls:)``. `nil`: no limit but `polls`.
    ///
    /// A negative interval, fewer than one poll or a limit of zero or less is a
    /// ``ScenarioDefinitionError``.
    public consuming func then<Next: Sendable>(
        _ step: Step<Current, Next>, repeatingEvery interval: Duration, until done: @escaping @Sendable (Next) -> Bool,
        atMost polls: Int, givingUpAfter limit: Duration? = nil
    ) -> ScenarioBuilder<Input, Next> {
        let index = outlines.count
        var outline = step.outline(conditional: false)
        if interval < .zero {
            outline.definitionProblem = .negativeWait(step: step.name, seconds: interval.inSeconds)
        } else if polls < 1 {
            outline.definitionProblem = .noPolls(step: step.name, polls: polls)
        } else if let limit, limit <= .zero {
            outline.definitionProblem = .nonPositiveLimit(step: step.name, seconds: limit.inSeconds)
        }
        let seconds = interval.inSeconds
        let limitSeconds = limit?.inSeconds
        return appending(outline, step: step.name) { value, run, position in
            Polling(
                run: run, step: step, index: index, input: value, interval: seconds, done: done, polls: polls,
                limit: limitSeconds
            ) {
                run.pass($0, after: position)
            }.start()
        }
    }

    private consuming func waiting(
        _ name: String, problem: ScenarioDefinitionError?, _ duration: @escaping @Sendable (Current) -> Duration
    ) -> ScenarioBuilder<Input, Current> {
        let index = outlines.count
        let step = Step<Current, WaitDeadline>(name) { WaitDeadlineOp(step: name, duration: duration) }
        var outline = step.outline(conditional: false)
        outline.definitionProblem = problem
        return appending(outline, step: name) { value, run, position in
            StepLife(run: run, step: step, index: index) { result in
                switch result {
                case .success(let deadline):
                    let address = run.address(index: index, name: name)
                    DurableSleep.wait(until: deadline, step: name, address: address, run: run) { waited in
                        run.pass(waited.map { value }, after: position)
                    }
                case .failure(let error):
                    run.pass(Result<Current, any Error>.failure(error), after: position)
                }
            }.start(value)
        }
    }
}
