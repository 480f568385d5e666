public import Operations

/// Why a resumed run stopped before a step instead of launching it.
///
/// Resumption refuses only where launching again could make a backend act twice; the caller
/// decides, with the facts in the sentence, whether to relaunch anyway
/// (``JournalReplay/init(_:relaunchingInDoubt:sealer:)``).
public enum ResumeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step has side effects, its last attempt may have acted (launched and never finished,
    /// or its answer was lost), and the journal has no idempotency key to repeat it with.
    case sideEffectsInDoubt(step: StepAddress)

    /// The step has side effects and would be launched with a new key, but the journal has
    /// damaged lines: one of them may have recorded an attempt of it that took effect.
    case sideEffectsAfterDamage(step: StepAddress, lines: [Int])

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        switch self {
        case .sideEffectsInDoubt(let step):
            "step \(step) has side effects and its last attempt may have taken effect (it was launched and "
                + "never finished, or its answer was lost), and the journal holds no idempotency key to repeat "
                + "it safely; it was not launched again"
        case .sideEffectsAfterDamage(let step, let lines):
            "step \(step) has side effects and the journal is damaged at line"
                + (lines.count == 1 ? " " : "s ") + lines.map(String.init).joined(separator: ", ")
                + ", which may have recorded an attempt of it that took effect; it was not launched again"
        }
    }

    /// The step concerned.
    public var step: StepAddress {
        switch self {
        case .sideEffectsInDoubt(let step), .sideEffectsAfterDamage(let step, _): step
        }
    }
}
