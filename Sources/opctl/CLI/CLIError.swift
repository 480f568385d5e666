/// A failure of opctl itself (not of a scenario) with the sentence a user sees.
enum CLIError: Error, CustomStringConvertible {
    /// The state directory cannot be used.
    case stateDirectory(String, String)
    /// Anything else opctl could not do, already in words.
    case message(String)

    var description: String {
        switch self {
        case .stateDirectory(let path, let problem): "the state directory \(path) \(problem)"
        case .message(let text): text
        }
    }
}
