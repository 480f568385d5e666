/// A finished step whose effect was undone by its compensation after a later step failed for
/// good (``Step/compensated(by:input:)``).
///
/// What lets an app tell "the account was opened and closed again" from "it was never opened"
/// without an observer of its own: ``StepFailure/undoneSteps`` lists them for the live run and
/// for a rerun that finished an undoing, and a journal's record lists them for a run that was
/// undone before (`JournalRecord.undone` in `OperationsJournal`).
public struct UndoneStep: Sendable, Hashable, CustomStringConvertible {
    /// Where the undone step sits in its run, `1.OpenAccountOp`; its compensation is journaled
    /// just below it, `1.OpenAccountOp/undo.CloseAccountOp`.
    public let address: StepAddress
    /// The name of the compensation that undid it.
    public let compensation: String

    /// Creates the record of an undone step.
    public init(address: StepAddress, compensation: String) {
        self.address = address
        self.compensation = compensation
    }

    /// The undone step's name.
    public var step: String { address.name }

    /// `OpenAccountOp (undone by CloseAccountOp)`.
    public var description: String { "\(step) (undone by \(compensation))" }
}
