/// A command line that cannot be run as written: exit status 2, one line, and a hint.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    let command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    var description: String { message }

    /// Where to look for the right usage.
    var hint: String {
        if let command { "See 'opctl \(command) --help'." } else { "See 'opctl --help'." }
    }
}
