/// One option of a command, declared once: its name, the name of its value (none for a flag),
/// its description, and the option it is an alternative to. The parser's ``ArgumentSpec``, the
/// usage argument and the help line are all made from it, so they cannot disagree.
///
/// ```swift
/// let options = [
///     CommandOption("--coupon", value: "CODE", "A coupon to apply, e.g. SAVE5"),
///     CommandOption("--dry-run", "Check the cart; charge nothing"),
///     CommandOption("--charge", "Charge the card", or: "--dry-run"),  // [--dry-run | --charge]
/// ]
/// ```
public struct CommandOption: Sendable, Hashable {
    /// The option as typed, e.g. `--coupon`.
    public var name: String
    /// The name of its value in usage and help (`CODE`), or `nil` for a flag.
    public var value: String?
    /// What it does, for its help line; a `\n` continues the description on the next line.
    public var description: String
    /// The option just before it in the list that it is an alternative to: the usage line
    /// shows both in one pair of brackets (`[--accept-terms | --decline-terms]`).
    public var alternativeTo: String?
    /// Whether the command needs it: its usage argument has no brackets.
    public var isRequired: Bool

    /// Declares an option, each part as its property says (`alternative` is ``alternativeTo``).
    public init(
        _ name: String, value: String? = nil, _ description: String, or alternative: String? = nil,
        isRequired: Bool = false
    ) {
        self.name = name
        self.value = value
        self.description = description
        self.alternativeTo = alternative
        self.isRequired = isRequired
    }

    /// The option with its value's name: `--coupon CODE`, or `--dry-run`.
    public var synopsis: String { value.map { "\(name) \($0)" } ?? name }

    /// Its argument in a usage line: `[--coupon CODE]`, or `--coupon CODE` when required.
    public var usage: String { isRequired ? synopsis : "[\(synopsis)]" }

    /// The arguments of `options` in a usage line, in order, alternatives in one pair of
    /// brackets: `[--code CODE | --code-stdin]`, each alternative right after the one it
    /// replaces in `options`.
    public static func usage(of options: [CommandOption]) -> [String] {
        var arguments: [String] = []
        var previous: CommandOption?
        for option in options {
            if let previous, !previous.isRequired, option.alternativeTo == previous.name, var last = arguments.popLast()
            {
                last.removeLast()
                arguments.append("\(last) | \(option.synopsis)]")
            } else {
                arguments.append(option.usage)
            }
            previous = option
        }
        return arguments
    }

    /// The same option described for one command (`--json` prints an array in `runs`, an
    /// object in `show`): read back through either, since reading goes by name.
    public func described(_ description: String) -> CommandOption {
        var option = self
        option.description = description
        return option
    }

    /// Its line under `OPTIONS:` (``HelpText/option(_:_:)``).
    public var helpLine: String { HelpText.option(synopsis, description) }
}
