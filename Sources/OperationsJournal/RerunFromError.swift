/// Why `rerun ID --from STEP` made no new run. Every case is refused before anything is
/// written or launched, and says so in a sentence a user can act on (``description``).
public enum RerunFromError: Error, Sendable, CustomStringConvertible {
    /// No step of the run's scenario has that name (or path); `choices` are the steps it has,
    /// as `--from` takes them.
    case unknownStep(String, choices: [String])
    /// Several steps have that name; `candidates` are their paths, one of which to give instead.
    case ambiguousStep(String, candidates: [String])
    /// The run never reached the step: there is nothing to replay up to it from.
    case stepNotReached(String, run: RunID, reached: [String])
    /// Steps before the one to rerun from were undone in the run (`undone`, by their name
    /// paths): a new run would replay their outputs as if they still held — a reservation
    /// already released — so it must start at the first of them or earlier.
    case undoneBefore(String, undone: [String], run: RunID)
    /// The run cannot be read, is being written, or its scenario's shape no longer matches
    /// this build's (the refusals of a plain rerun, ``ResumeCheck``).
    case journal(JournalError)

    /// A sentence for people: CLI messages, test failures.
    public var description: String {
        switch self {
        case .unknownStep(let name, let choices):
            "the run has no step '\(name)'; its steps are: \(choices.joined(separator: ", "))"
        case .ambiguousStep(let name, let candidates):
            "several steps are named '\(name)'; give one of: \(candidates.joined(separator: ", "))"
        case .stepNotReached(let name, let run, let reached):
            "run \(run) never reached \(name), so there is nothing to rerun it from"
                + (reached.isEmpty ? "" : "; it reached: \(reached.joined(separator: ", "))")
        case .undoneBefore(let name, let undone, let run):
            "run \(run) undid \(undone.joined(separator: ", ")) before \(name), so a rerun from \(name) would go on "
                + "as if \(undone.count == 1 ? "it" : "they") still held; rerun from \(undone[0]) or an earlier step"
        case .journal(let error):
            error.description
        }
    }
}
