/// Every branch of a race failed: the race names each branch and why.
///
/// A parallel step that waits for all its branches fails with the first branch's failure, a
/// ``StepFailure`` naming it; a race fails only when no branch succeeds, so it names them all.
public struct ParallelFailure: Error, Sendable, CustomStringConvertible {
    /// The parallel step's name.
    public let step: String
    /// Each branch's failure, in branch order.
    public let failures: [StepFailure]

    /// Creates the failure.
    public init(step: String, failures: [StepFailure]) {
        self.step = step
        self.failures = failures
    }

    /// `every branch of FastestQuote failed: QuoteA (unreachable), QuoteB (no offer)`.
    public var description: String {
        let each = failures.map { "\($0.step) (\($0.rootCause))" }.joined(separator: ", ")
        return "every branch of \(step) failed: \(each)"
    }
}
