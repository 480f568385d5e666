/// A command line that cannot be run as written: exit status 2, one line, and a hint.
///
/// The hint names the program, which the error does not know where it is thrown (deep in
/// argument parsing), so it is asked for with ``hint(program:)`` where the error is printed.
public struct UsageError: Error, CustomStringConvertible {
    /// The one line, without the `PROGRAM: ` prefix.
    public let message: String
    /// The command whose help the hint points to; the top-level help when `nil`.
    public let command: String?
    private let customHint: String?

    /// Creates the error: its ``message``, the ``command`` whose help the hint points to, and a
    /// `hint` that says more than "see the help", like where to find run ids.
    public init(_ message: String, command: String? = nil, hint: String? = nil) {
        self.message = message
        self.command = command
        self.customHint = hint
    }

    /// The one line.
    public var description: String { message }

    /// Where to look for the right usage: `See 'PROGRAM COMMAND --help'.`, or the custom hint.
    public func hint(program: String) -> String {
        if let customHint {
            customHint
        } else if let command {
            "See '\(program) \(command) --help'."
        } else {
            "See '\(program) --help'."
        }
    }

    /// The same error pointing to `command`'s help, unless it already names a command or hint.
    public func within(_ command: String) -> UsageError {
        self.command == nil && customHint == nil ? UsageError(message, command: command) : self
    }
}
