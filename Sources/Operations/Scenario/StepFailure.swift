/// A scenario ended because one of its steps failed: which step, on which attempt, and why.
///
/// Nested scenarios wrap their failures in turn; ``rootCause`` reaches the operation's own error
/// and ``stepPath`` names the steps from the outermost scenario down.
public struct StepFailure: Error, Sendable, CustomStringConvertible {
    /// The scenario that ended.
    public let scenario: String
    /// The step that failed.
    public let step: String
    /// The attempt that failed last, from 1.
    public let attempt: Int
    /// Why it failed.
    public let error: any Error
    /// What the engine adds to the error, e.g. why a retry that looked possible did not happen.
    public let note: String?
    /// The finished steps of ``scenario`` that were undone because of this failure, in the order
    /// they were undone (last finished first); empty when the scenario had nothing to undo, or
    /// the failure was one a rerun may get past, which undoes nothing. Every compensation
    /// succeeded: when one does not, the scenario fails with a ``CompensationFailure`` instead.
    ///
    /// ``undoneSteps`` adds what the nested scenarios and branches below undid.
    public let undone: [UndoneStep]

    /// Creates a failure.
    public init(
        scenario: String, step: String, attempt: Int, error: any Error, note: String? = nil, undone: [UndoneStep] = []
    ) {
        self.scenario = scenario
        self.step = step
        self.attempt = attempt
        self.error = error
        self.note = note
        self.undone = undone
    }

    /// Every step undone because of this failure, in the order they were undone: those of the
    /// nested scenarios and branches that failed first (innermost first), then this scenario's
    /// own (``undone``). Empty means nothing was undone — a step whose name is not here either
    /// never finished or stands.
    ///
    /// ```swift
    /// if failure.undoneSteps.contains(where: { $0.step == "OpenAccountOp" }) {
    ///     show("Your account was opened and closed again; nothing was charged.")
    /// }
    /// ```
    public var undoneSteps: [UndoneStep] {
        Self.undoneSteps(below: error) + undone
    }

    /// What the failures wrapped in `error` undid: a nested scenario's failure, a failed
    /// race's branches, an undoing that left something undone.
    static func undoneSteps(below error: any Error) -> [UndoneStep] {
        switch error {
        case let failure as StepFailure: failure.undoneSteps
        case let race as ParallelFailure: race.failures.flatMap(\.undoneSteps)
        case let undoing as CompensationFailure: undoing.undoneSteps
        default: []
        }
    }

    /// The same failure, with `undone` as the steps its scenario undid.
    func undoing(_ undone: [UndoneStep]) -> StepFailure {
        StepFailure(scenario: scenario, step: step, attempt: attempt, error: error, note: note, undone: undone)
    }

    /// The error of the innermost failed operation.
    public var rootCause: any Error {
        (error as? StepFailure)?.rootCause ?? error
    }

    /// The failed steps from the outermost scenario down: `["AuthScenario", "CodeOp"]`.
    public var stepPath: [String] {
        [step] + ((error as? StepFailure)?.stepPath ?? [])
    }

    /// The innermost failed operation's name.
    public var failedOperation: String { stepPath.last ?? step }

    /// How many times the innermost failed operation (``failedOperation``) was attempted: the
    /// number its failure is told with, whichever scenario it is nested in.
    public var failedOperationAttempts: Int {
        (error as? StepFailure)?.failedOperationAttempts ?? attempt
    }

    /// A sentence for people: logs, CLI messages, test failures. The attempts it counts are the
    /// innermost failed operation's, the one it names last. A cancellation (a person declined,
    /// Ctrl-C) is said to have cancelled the step, not to have failed it.
    public var description: String {
        let attempt = failedOperationAttempts
        let cancelled = rootCause.isCancellation
        let attempts = attempt == 1 ? "" : cancelled ? " at attempt \(attempt)" : " after \(attempt) attempts"
        let notes = notes.map { " (\($0))" }.joined()
        let path = stepPath.joined(separator: " › ")
        return "\(path) \(cancelled ? "cancelled" : "failed")\(attempts): \(rootCause)\(notes)"
    }

    /// The notes of this failure and of the nested failures it wraps, innermost last.
    public var notes: [String] {
        (note.map { [$0] } ?? []) + ((error as? StepFailure)?.notes ?? [])
    }
}

extension StepFailure: TraceLabelConvertible {
    /// The failed operation and its own error's short form, `CodeOp: locked`: the
    /// scenario's `onFinish(error: …)` arrow says what went wrong, not that "a step failed".
    public var traceLabel: String {
        "\(failedOperation): \(TraceLabel.describe(rootCause) ?? "error")"
    }
}
