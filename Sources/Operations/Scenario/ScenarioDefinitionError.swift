/// Why a scenario cannot run as it was built: found when it is built, reported when it is
/// launched, before any step launches.
///
/// The compiler checks a chain's types; what it cannot see — a step's purity is a value —
/// is checked here, so a mistake in a scenario's definition stops its first launch with a
/// sentence instead of misbehaving in the field.
public enum ScenarioDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A pure step was given a compensation: it acts on nothing outside, so there is nothing
    /// to undo, and an undo step that does act would act for nothing.
    case compensationOnPureStep(step: String, compensation: String)
    /// A parallel step was given no branch: it would finish with nothing, having run nothing.
    case parallelWithoutBranches(step: String)
    /// A wait was given a negative duration (or a polled step a negative interval): time does
    /// not run backwards, and waiting zero instead would hide the mistake.
    case negativeWait(step: String, seconds: Double)
    /// A polled step was allowed fewer than one poll, so it could never be done.
    case noPolls(step: String, polls: Int)
    /// A polled step was given an overall limit of zero or less: it would give up before its
    /// first poll could answer.
    case nonPositiveLimit(step: String, seconds: Double)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .compensationOnPureStep(let step, let compensation):
            "\(step) is pure, so it has nothing to undo: remove its compensation \(compensation), "
                + "or declare the step's side effects (Step(…, purity: .sideEffects))"
        case .parallelWithoutBranches(let step):
            "the parallel step \(step) has no branches: give it at least one step"
        case .negativeWait(let step, let seconds):
            "\(step) waits a negative time (\(seconds) s): give it a duration of zero or more"
        case .noPolls(let step, let polls):
            "\(step) is polled at most \(polls) times: allow it at least one poll"
        case .nonPositiveLimit(let step, let seconds):
            "\(step) gives up after \(seconds) s of polling: give it a limit of more than zero"
        }
    }
}
