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

    /// Creates a failure.
    public init(scenario: String, step: String, attempt: Int, error: any Error, note: String? = nil) {
        self.scenario = scenario
        self.step = step
        self.attempt = attempt
        self.error = error
        self.note = note
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

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        let attempts = attempt == 1 ? "" : " after \(attempt) attempts"
        let notes = notes.map { " (\($0))" }.joined()
        return "\(stepPath.joined(separator: " › ")) failed\(attempts): \(rootCause)\(notes)"
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
