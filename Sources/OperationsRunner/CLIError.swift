/// A failure of the runner program itself (not of a scenario) with the sentence a user sees:
/// exit status 1 and the sentence after the program's name.
public enum CLIError: Error, CustomStringConvertible {
    /// The state directory cannot be used.
    case stateDirectory(String, String)
    /// Anything else the program could not do, already in words.
    case message(String)

    /// The sentence a user sees.
    public var description: String {
        switch self {
        case .stateDirectory(let path, let problem): "the state directory \(path) \(problem)"
        case .message(let text): text
        }
    }
}
