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
    /// Why the engine did not try again when a reader would expect it to, e.g. "not retried:
    /// CodeOp has side effects and its retry policy does not relaunch side effects"; `nil` when
    /// there is nothing to explain.
    public let note: String?

    /// Creates a failure.
    ///
    /// - Parameter note: Why the step was not retried, when that is not obvious.
    public init(scenario: String, step: String, attempt: Int, error: any Error, note: String? = nil) {
        self.scenario = scenario
        self.step = step
        self.attempt = attempt
        self.error = error
        self.note = note
    }

    /// The notes of this failure and the nested ones it wraps, outermost first.
    private var notes: [String] {
        (note.map { [$0] } ?? []) + ((error as? StepFailure)?.notes ?? [])
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
        let sentence = "\(stepPath.joined(separator: " › ")) failed\(attempts): \(rootCause)"
        let notes = notes
        return notes.isEmpty ? sentence : sentence + " (" + notes.joined(separator: "; ") + ")"
    }
}
