import Foundation

/// One polled step's polls within one run, up to its most polls or its overall limit. Where
/// it stands is reported as it begins and before every wait (``ScenarioEvent/Kind/polling(_:)``),
/// so a resumed run counts on, waits what is left, and measures the limit from the first poll.
struct Polling<Input: Sendable, Output: Sendable>: Sendable {
    let run: ScenarioRun
    let step: Step<Input, Output>
    let index: Int
    let input: Input
    /// Seconds, as `limit`.
    let interval: Double
    let done: @Sendable (Output) -> Bool
    let polls: Int
    let limit: Double?
    let finish: StepFinish<Output>

    private var address: StepAddress { run.address(index: index, name: step.name) }

    func start() {
        let recorded = run.environment.replay?.pollProgress(at: address)
        guard let recorded else {
            let began = run.environment.scheduler.wallClock
            report(PollProgress(began: began, polls: 0, nextPoll: nil))
            return poll(1, began: began, launch: StepLife.start)
        }
        if let next = recorded.nextPoll {
            // The run stopped while waiting for this poll: only what is left of the wait, then a
            // new poll — the journal's last answer is the one it waited after, not a new one.
            return wait(until: next, thenPoll: recorded.polls + 1, began: recorded.began)
        }
        // The run stopped before its first poll answered, or right after an answer and before
        // its wait was recorded: the journal replays that answer (or launches the poll).
        poll(max(recorded.polls, 1), began: recorded.began, launch: StepLife.start)
    }

    /// Launches poll `number` (counted over every session); the first of a resumed process may
    /// come from the journal (`launch`).
    private func poll(_ number: Int, began: Date, launch: (StepLife<Input, Output>) -> (Input) -> Void) {
        let life = StepLife(run: run, step: step, index: index) { result in
            guard case .success(let output) = result, !done(output) else { return finish(result) }
            let now = run.environment.scheduler.wallClock
            let elapsed = now.timeIntervalSince(began)
            if number >= polls {
                return giveUp(WaitError.stillNotDone(step: step.name, polls: number), attempt: number)
            }
            if let limit, elapsed >= limit {
                return giveUp(WaitError.gaveUp(step: step.name, after: .seconds(limit), polls: number), attempt: number)
            }
            // A new deadline per wait: the interval runs from this poll's answer, and no wait
            // goes past the overall limit, where one last poll is made.
            let seconds = limit.map { min(interval, $0 - elapsed) } ?? interval
            let deadline = WaitDeadline(from: now, seconds: seconds)
            report(PollProgress(began: began, polls: number, nextPoll: deadline))
            wait(until: deadline, thenPoll: number + 1, began: began)
        }
        launch(life)(input)
    }

    private func wait(until deadline: WaitDeadline, thenPoll number: Int, began: Date) {
        DurableSleep.wait(until: deadline, step: step.name, address: address, run: run) { waited in
            switch waited {
            case .success: run.schedule { poll(number, began: began, launch: StepLife.launchAnew) }
            case .failure(let error): finish(.failure(error))
            }
        }
    }

    private func giveUp(_ error: WaitError, attempt: Int) {
        if let trace = run.trace, trace.isEnabled { trace.note("stopped: \(error)") }
        // The journal's record of an undoing names this step, so that a rerun fails it again
        // instead of polling on past the undoing.
        run.noteFailure(at: address)
        finish(.failure(StepFailure(scenario: run.name, step: step.name, attempt: attempt, error: error)))
    }

    private func report(_ progress: PollProgress) {
        if run.isObserved { run.report(.polling(progress), address: address) }
    }
}
