/// A scenario failed for good and undoing its finished steps did not undo them all: what is
/// left undone needs a person (or a later rerun) to see to it.
///
/// When every compensation succeeds, the scenario fails with the error that started the
/// undoing, its ``StepFailure/undone`` listing what was undone; this error appears only when
/// something is left undone, so it is never silently dropped.
public struct CompensationFailure: Error, Sendable, CustomStringConvertible {
    /// One step whose effect stands: its compensation failed, or was never launched because the
    /// run had to stop.
    public struct LeftUndone: Sendable, CustomStringConvertible {
        /// Where the step whose effect stands sits in its run.
        public let address: StepAddress
        /// The step that was to undo it.
        public let compensation: String
        /// Why it did not.
        public let error: any Error

        /// Creates the record of a step left undone.
        public init(address: StepAddress, compensation: String, error: any Error) {
            self.address = address
            self.compensation = compensation
            self.error = error
        }

        /// The name of the step whose effect stands.
        public var step: String { address.name }

        /// `ReserveStockOp (ReleaseStockOp failed: the store is unreachable)`.
        public var description: String {
            "\(step) (\(compensation) failed: \((error as? StepFailure)?.rootCause ?? error))"
        }
    }

    /// The failure that started the undoing.
    public let failure: any Error
    /// The steps of the failed scenario that were undone, in the order they were undone (last
    /// finished first).
    public let undone: [UndoneStep]
    /// The steps whose effect stands, in the order they were to be undone.
    public let leftUndone: [LeftUndone]

    /// Creates the failure.
    public init(failure: any Error, undone: [UndoneStep], leftUndone: [LeftUndone]) {
        self.failure = failure
        self.undone = undone
        self.leftUndone = leftUndone
    }

    /// Every step undone because of the failure, in the order they were undone: what the nested
    /// scenarios below undid first (see ``StepFailure/undoneSteps``), then ``undone``.
    public var undoneSteps: [UndoneStep] {
        StepFailure.undoneSteps(below: failure) + undone
    }

    /// `PayOp failed: card declined; left undone: ReserveStockOp (ReleaseStockOp failed: …)`.
    public var description: String {
        let left = leftUndone.map(\.description).joined(separator: ", ")
        return "\(failure); left undone: \(left)"
    }
}
