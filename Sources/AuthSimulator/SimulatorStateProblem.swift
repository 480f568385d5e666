/// What went wrong with a simulator's stored state (``SimulatedBackend/Configuration/stateStore``),
/// told through ``SimulatedBackend/Configuration/onStateProblem`` once per kind per simulator, so
/// a person learns why a rerun met a backend that forgot, without a line per request.
///
/// Neither case is a crash or a refusal to start: a simulator is a development tool, and a state
/// it cannot use is one it can do without. The descriptions name the reason, never the state.
public enum SimulatorStateProblem: Sendable, Equatable, CustomStringConvertible {
    /// The stored state could not be used — unreadable, not the simulator's format, damaged, or
    /// of another format version — so the backend started afresh (no codes, attempts, locks,
    /// acceptances, revocations or kept answers) and stored its fresh state in its place.
    case startedAfresh(reason: String)
    /// A request's changes could not be stored: the backend answered it `503` with `Retry-After`,
    /// as a server whose database refused a commit, and nothing it did for the request stands
    /// (no SMS went out, no attempt was spent).
    case notStored(SimulatorStateStoreError)

    /// The problem in a sentence's worth of words, without the backend's name.
    public var description: String {
        switch self {
        case .startedAfresh(let reason): "its stored state \(reason); it started afresh"
        case .notStored(let error): "it could not store its state (\(error)); it answered 503"
        }
    }
}
