/// What a scenario does with a step that failed and will not be retried by its policy.
public enum FailureDecision<Input: Sendable, Output: Sendable>: Sendable {
    /// Launch the step again — a new operation from its factory — with this input.
    ///
    /// `because` is the reason a reader of the run's diagram sees on the frame around the new
    /// attempt (`wrong code, asked again`, `declined: insufficient funds`); without one, the
    /// frame names the error that ended the last attempt.
    case relaunch(Input, because: String? = nil)
    /// Carry on as if the step had produced this output.
    case recover(Output)
    /// End the scenario with the step's failure.
    case fail
    /// End the step with this error instead of its own: the handler could not decide (the
    /// person it asked could not answer, ``PromptUnanswerable``), and the run should end as that
    /// says — a cancellation undoes nothing and leaves the run to a rerun, where the step's own
    /// failure would be one for good.
    case stop(because: any Error)
}

/// What a failure handler is told about the failed step.
public struct StepFailureInfo<Input: Sendable>: Sendable {
    /// The step's name.
    public let step: String
    /// The attempt that failed, counted from 1 over the step's whole life in this run.
    public let attempt: Int
    /// The error the operation finished with.
    public let error: any Error
    /// The input the failed attempt was launched with.
    public let input: Input
    /// The launch's cancellation, so a handler that asks the person (a card sheet, the code
    /// screen) can close its screen when the scenario is cancelled. The step then finishes as
    /// cancelled at once and a later decision is ignored.
    public let cancellation: CancellationToken?

    /// Creates the information, e.g. to unit-test a ``FailureHandler``.
    public init(step: String, attempt: Int, error: any Error, input: Input, cancellation: CancellationToken? = nil) {
        self.step = step
        self.attempt = attempt
        self.error = error
        self.input = input
        self.cancellation = cancellation
    }
}

/// Decides, possibly asynchronously (after asking the user), what to do with a failed step.
///
/// Call `decide` exactly once.
public typealias FailureHandler<Input: Sendable, Output: Sendable> =
    @Sendable (
        _ failure: StepFailureInfo<Input>, _ decide: @escaping @Sendable (FailureDecision<Input, Output>) -> Void
    )
    -> Void
