/// Why a resumed run stopped before a step instead of launching it.
///
/// Resumption refuses only where launching again could make a backend act twice; the caller
/// decides, with the facts in the sentence, whether to relaunch anyway
/// (``JournalReplay/init(_:relaunchingInDoubt:)``).
public enum ResumeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step has side effects, its last attempt may have acted (launched and never finished,
    /// or its answer was lost), and the journal has no idempotency key to repeat it with.
    case sideEffectsInDoubt(step: StepAddress)

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        switch self {
        case .sideEffectsInDoubt(let step):
            "step \(step) has side effects and its last attempt may have taken effect (it was launched and "
                + "never finished, or its answer was lost), and the journal holds no idempotency key to repeat "
                + "it safely; it was not launched again"
        }
    }

    /// The step concerned.
    public var step: StepAddress {
        switch self {
        case .sideEffectsInDoubt(let step): step
        }
    }
}
