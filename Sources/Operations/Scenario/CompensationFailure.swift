/// A scenario failed for good and undoing its finished steps did not undo them all: what is
/// left undone needs a person (or a later rerun) to see to it.
///
/// When every compensation succeeds, the scenario fails with the error that started the
/// undoing, unchanged; this error appears only when something is left undone, so it is never
/// silently dropped.
public struct CompensationFailure: Error, Sendable, CustomStringConvertible {
    /// One step whose effect stands: its compensation failed, or was never launched because the
    /// run had to stop.
    public struct LeftUndone: Sendable, CustomStringConvertible {
        /// The step whose effect stands.
        public let step: String
        /// The step that was to undo it.
        public let compensation: String
        /// Why it did not.
        public let error: any Error

        /// `ReserveStockOp (ReleaseStockOp failed: the store is unreachable)`.
        public var description: String {
            "\(step) (\(compensation) failed: \((error as? StepFailure)?.rootCause ?? error))"
        }
    }

    /// The failure that started the undoing.
    public let failure: any Error
    /// The steps that were undone, in the order they were undone (last finished first).
    public let undone: [String]
    /// The steps whose effect stands, in the order they were to be undone.
    public let leftUndone: [LeftUndone]

    /// Creates the failure.
    public init(failure: any Error, undone: [String], leftUndone: [LeftUndone]) {
        self.failure = failure
        self.undone = undone
        self.leftUndone = leftUndone
    }

    /// `PayOp failed: card declined; left undone: ReserveStockOp (ReleaseStockOp failed: …)`.
    public var description: String {
        let left = leftUndone.map(\.description).joined(separator: ", ")
        return "\(failure); left undone: \(left)"
    }
}
