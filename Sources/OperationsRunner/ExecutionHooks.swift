import Operations
public import OperationsJournal

/// What a program says about its own runs where the runner's generic words would be wrong:
/// input its screens could not get, how a cancellation reads, failures it explains, and what a
/// rerun will need on its command line. Every hook has a generic default.
public struct ExecutionHooks: Sendable {
    /// Input the run needed and could not get (a screen closed with no terminal to ask): the
    /// run then ends as a usage error (exit 2) with this line and its hint.
    public var inputError: @Sendable () -> UsageError?
    /// The line of a cancelled run, from its cause.
    public var cancellationMessage: @Sendable (_ cause: any Error) -> String
    /// A cancellation the program explains itself — a cause that ended the flow for good (a
    /// session signed out elsewhere), which a rerun cannot resume — or `nil` for
    /// ``cancellationMessage`` and the runner's rerun offer.
    public var explainCancellation: @Sendable (_ cause: any Error) -> FailureReading?
    /// A failure the program explains itself; `nil` for the runner's reading.
    ///
    /// The arguments are the root cause, the failed step and `" after N attempts"` or `""`.
    public var explainFailure: @Sendable (_ cause: any Error, _ step: String, _ attempts: String) -> FailureReading?
    /// Words after `PROGRAM rerun RUN_ID` that the rerun will need (opctl: `--code CODE`),
    /// from the run's journal and the step that failed.
    public var rerunArguments: @Sendable (_ record: JournalRecord?, _ failedStep: String?) -> [String]

    /// Creates hooks; each defaults to the runner's generic behaviour.
    ///
    /// - Parameters:
    ///   - inputError: Input the run could not get; none by default.
    ///   - cancellationMessage: The line of a cancelled run; `run cancelled: CAUSE` by default.
    ///   - explainCancellation: A cancellation the program explains; none by default.
    ///   - explainFailure: A failure the program explains; none by default.
    ///   - rerunArguments: Words a rerun needs; none by default.
    public init(
        inputError: @escaping @Sendable () -> UsageError? = { nil },
        cancellationMessage: @escaping @Sendable (_ cause: any Error) -> String = { "run cancelled: \($0)" },
        explainCancellation: @escaping @Sendable (_ cause: any Error) -> FailureReading? = { _ in nil },
        explainFailure:
            @escaping @Sendable (_ cause: any Error, _ step: String, _ attempts: String) -> FailureReading? =
            { _, _, _ in nil },
        rerunArguments: @escaping @Sendable (_ record: JournalRecord?, _ failedStep: String?) -> [String] = { _, _ in []
        }
    ) {
        self.inputError = inputError
        self.cancellationMessage = cancellationMessage
        self.explainCancellation = explainCancellation
        self.explainFailure = explainFailure
        self.rerunArguments = rerunArguments
    }
}
