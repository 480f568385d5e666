/// One polled step's polls within one run: launch the step, and while its output is not done,
/// wait out the interval and launch it again, up to its most polls.
struct Polling<Input: Sendable, Output: Sendable>: Sendable {
    let run: ScenarioRun
    let step: Step<Input, Output>
    let index: Int
    let input: Input
    /// The wait between polls, in seconds.
    let interval: Double
    let done: @Sendable (Output) -> Bool
    let polls: Int
    let finish: StepFinish<Output>

    init(
        run: ScenarioRun, step: Step<Input, Output>, index: Int, input: Input, interval: Double,
        done: @escaping @Sendable (Output) -> Bool, polls: Int, then finish: @escaping StepFinish<Output>
    ) {
        self.run = run
        self.step = step
        self.index = index
        self.input = input
        self.interval = interval
        self.done = done
        self.polls = polls
        self.finish = finish
    }

    /// Launches poll number `number` (from 1), then decides from its output.
    func poll(_ number: Int) {
        StepLife(run: run, step: step, index: index) { result in
            guard case .success(let output) = result, !done(output) else { return finish(result) }
            guard number < polls else {
                let error = WaitError.stillNotDone(step: step.name, polls: polls)
                if let trace = run.trace, trace.isEnabled { trace.note("stopped: \(error)") }
                // The journal's record of an undoing names this step, so that a rerun fails it
                // again instead of polling on past the undoing.
                run.noteFailure(at: run.address(index: index, name: step.name))
                return finish(.failure(StepFailure(scenario: run.name, step: step.name, attempt: number, error: error)))
            }
            // A new deadline per wait: the interval runs from this poll's answer.
            let deadline = WaitDeadline(from: run.environment.scheduler.wallClock, seconds: interval)
            let address = run.address(index: index, name: step.name)
            DurableSleep.wait(until: deadline, step: step.name, address: address, run: run) { waited in
                switch waited {
                case .success: run.schedule { poll(number + 1) }
                case .failure(let error): finish(.failure(error))
                }
            }
        }.start(input)
    }
}
