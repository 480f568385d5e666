/// Nobody can answer a screen's question now — there is no terminal to ask on and the input was
/// not given, the app is in the background, the person is not there — so the launch ends as a
/// **cancellation**, not a failure: nothing is undone, and the run can be rerun with the input.
///
/// A screen says so with ``ScreenPrompt/cannotBeAnswered(because:)``. Declining with an error of
/// its own (``ScreenPrompt/decline(_:)``) is a failure for good unless the error is a
/// ``CancellationReason``: the steps before it that declare a compensation are undone — an
/// account closed because a code could not be typed in.
public struct PromptUnanswerable: CancellationReason, Sendable, Hashable, CustomStringConvertible {
    /// What was asked, as the prompt names it (`PayOp`, `the SMS code`).
    public let question: String
    /// Why nobody could answer it, for people (`standard input is not a terminal`).
    public let reason: String

    /// Creates the error.
    public init(question: String, reason: String) {
        self.question = question
        self.reason = reason
    }

    /// A sentence for people: `nobody could answer PayOp: standard input is not a terminal`.
    public var description: String { "nobody could answer \(question): \(reason)" }
}
