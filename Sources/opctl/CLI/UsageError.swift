/// A command line that cannot be run as written: exit status 2, one line, and a hint.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    let command: String?
    private let customHint: String?

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - message: The one line, without the `opctl: ` prefix.
    ///   - command: The command whose help the hint points to; the top-level help when `nil`.
    ///   - hint: A hint that says more than "see the help", like where to find run ids.
    init(_ message: String, command: String? = nil, hint: String? = nil) {
        self.message = message
        self.command = command
        self.customHint = hint
    }

    var description: String { message }

    /// Where to look for the right usage.
    var hint: String {
        if let customHint {
            customHint
        } else if let command {
            "See 'opctl \(command) --help'."
        } else {
            "See 'opctl --help'."
        }
    }

    /// The same error pointing to `command`'s help, unless it already names a command or hint.
    func within(_ command: String) -> UsageError {
        self.command == nil && customHint == nil ? UsageError(message, command: command) : self
    }
}
