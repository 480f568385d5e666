/// What a command accepts: flags, options that take a value, and positional arguments.
///
/// Public so that a program's own commands declare their options once, beside their help text,
/// and are parsed by the same rules as the runner's commands.
public struct ArgumentSpec: Sendable {
    /// Options that stand alone, like `--json`.
    public var flags: Set<String>
    /// Options that take a value, like `--phone NUMBER` or `--phone=NUMBER`.
    public var options: Set<String>
    /// How many positional arguments the command takes at most.
    public var maxPositionals: Int

    /// The spec that accepts `options` (``CommandOption``): those with a value as options, the
    /// others as flags.
    public init(_ options: [CommandOption] = [], maxPositionals: Int = 0) {
        flags = Set(options.filter { $0.value == nil }.map(\.name))
        self.options = Set(options.filter { $0.value != nil }.map(\.name))
        self.maxPositionals = maxPositionals
    }
}

/// The arguments of one command line, parsed against an ``ArgumentSpec``.
///
/// Hand-written because the package takes no dependencies; it follows the conventions people
/// expect: `--name value` and `--name=value`, `--` ends the options, `-h` means `--help`.
public struct ParsedArguments: Sendable {
    /// The flags given, `--help` included when `-h` or `--help` was.
    public private(set) var flags: Set<String> = []
    /// The last value of each option given.
    public private(set) var values: [String: String] = [:]
    /// Every value of each option, in order, for options that may be repeated (`--status a --status b`).
    public private(set) var repeatedValues: [String: [String]] = [:]
    /// The positional arguments, in order.
    public private(set) var positionals: [String] = []

    /// Parses `arguments`.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the command's name.
    ///   - spec: What the command accepts.
    ///   - command: The command's name, whose help an error points to.
    /// - Throws: ``UsageError`` naming the unknown option, the option missing its value, or the
    ///   extra argument.
    public init(_ arguments: [String], spec: ArgumentSpec, command: String) throws {
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                flags.insert("--help")
                continue
            }
            let (name, inlineValue) = Self.split(argument)
            if spec.flags.contains(name) {
                guard inlineValue == nil else {
                    throw UsageError("option '\(name)' takes no value", command: command)
                }
                flags.insert(name)
            } else if spec.options.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                    repeatedValues[name, default: []].append(inlineValue)
                } else if let next = remaining.first, !next.hasPrefix("--") {
                    values[name] = next
                    repeatedValues[name, default: []].append(next)
                    remaining = remaining.dropFirst()
                } else {
                    throw UsageError("option '\(name)' needs a value", command: command)
                }
            } else {
                throw UsageError("unknown option '\(Self.clip(name))'", command: command)
            }
        }
        if positionals.count > spec.maxPositionals {
            let extra = positionals[spec.maxPositionals]
            throw UsageError("unexpected argument '\(Self.clip(extra))'", command: command)
        }
    }

    /// Whether `flag` was given: read through its declaration, so the name is spelled once.
    public func has(_ flag: CommandOption) -> Bool { flags.contains(flag.name) }

    /// The value given to `option`, if any (the last one, when it was given more than once).
    public func value(_ option: CommandOption) -> String? { values[option.name] }

    /// Every value given to `option`, in order; empty when it was not given.
    public func allValues(_ option: CommandOption) -> [String] { repeatedValues[option.name] ?? [] }

    /// The whole number of 0 or more given to `option` (`--reserve-failures 2`), or
    /// `defaultValue` when it was not given: a count a program's option takes, refused in words
    /// rather than read as 0 when it is not one.
    ///
    /// - Throws: ``UsageError`` naming the option and what was given.
    public func count(_ option: CommandOption, default defaultValue: Int = 0, command: String) throws -> Int {
        guard let text = value(option) else { return defaultValue }
        guard let number = Int(text), number >= 0 else {
            throw UsageError(
                "\(option.name) takes a whole number of 0 or more, not '\(Self.clip(text))'", command: command)
        }
        return number
    }

    /// The value of `option`, if given, refused when it is empty (`--card ''`): a value a
    /// program cannot run with (a card, a cart), refused in words before anything is journaled
    /// rather than found out by the flow.
    ///
    /// - Returns: The value, or `nil` when the option was not given.
    /// - Throws: ``UsageError`` naming the option.
    public func nonEmptyValue(_ option: CommandOption, command: String) throws -> String? {
        guard let text = value(option) else { return nil }
        guard !text.allSatisfy(\.isWhitespace) else {
            throw UsageError("\(option.name) needs a value that is not empty", command: command)
        }
        return text
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// Keeps a 10 kB argument from flooding an error message; public because a program's own
    /// errors quote arguments too.
    public static func clip(_ text: String, to limit: Int = 40) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}
