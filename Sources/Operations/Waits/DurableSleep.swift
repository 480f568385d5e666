/// The second half of a durable wait: waits until a journaled deadline, only what is left of
/// it; cancellation ends it at once, the step failing as cancelled.
enum DurableSleep {
    static func wait(
        until deadline: WaitDeadline, step: String, address: StepAddress, run: ScenarioRun,
        then finish: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let scheduler = run.environment.scheduler
        let remaining = deadline.remaining(at: scheduler.wallClock)
        if let trace = run.trace, trace.isEnabled {
            trace.note(note(step: step, deadline: deadline, remaining: remaining))
        }
        guard remaining > .zero else { return finish(.success(())) }
        let cancelled: @Sendable () -> Void = {
            if let trace = run.trace, trace.isEnabled { trace.note("stopped: cancelled during \(step)") }
            run.noteFailure(at: address)
            finish(.failure(StepFailure(scenario: run.name, step: step, attempt: 1, error: OpError.cancelled)))
        }
        if run.cancellation?.isCancelled == true { return cancelled() }
        // The run is parked for the wait: an observer (a journal) may let go of what it holds.
        let observer = run.environment.observer
        observer?.runParked()
        run.wait(remaining) {
            observer?.runGoesOn()
            finish(.success(()))
        } cancelled: {
            observer?.runGoesOn()
            cancelled()
        }
    }

    /// The wait's note, e.g. `ResendDelay: wait 30 s`, `ResendDelay: wait 12 s (of 30 s)` in a
    /// resumed run, `ResendDelay: no wait, its deadline has passed`.
    static func note(step: String, deadline: WaitDeadline, remaining: Duration) -> String {
        guard remaining > .zero else {
            return deadline.seconds == 0 ? "\(step): no wait" : "\(step): no wait, its deadline has passed"
        }
        let left = WaitDeadline.describe(seconds: remaining.inSeconds)
        let whole = WaitDeadline.describe(seconds: deadline.seconds)
        return left == whole ? "\(step): wait \(left)" : "\(step): wait \(left) (of \(whole))"
    }
}
