/// One option of a command, declared once: its name, the name of its value (none for a flag)
/// and its description. The parser's ``ArgumentSpec``, the usage argument and the help line
/// are all made from it, so they cannot disagree.
///
/// ```swift
/// static let declaredRunOptions = [
///     CommandOption("--coupon", value: "CODE", "A coupon to apply, e.g. SAVE5"),
///     CommandOption("--dry-run", "Check the cart; charge nothing"),
/// ]
/// ```
public struct CommandOption: Sendable, Hashable {
    /// The option as typed, e.g. `--coupon`.
    public var name: String
    /// The name of its value in usage and help (`CODE`), or `nil` for a flag.
    public var value: String?
    /// What it does, for its help line; a `\n` continues the description on the next line.
    public var description: String

    /// Declares an option.
    ///
    /// - Parameters:
    ///   - name: The option as typed, e.g. `--coupon`.
    ///   - value: The name of its value, or `nil` for a flag.
    ///   - description: What it does, for its help line.
    public init(_ name: String, value: String? = nil, _ description: String) {
        self.name = name
        self.value = value
        self.description = description
    }

    /// The option with its value's name: `--coupon CODE`, or `--dry-run`.
    public var synopsis: String { value.map { "\(name) \($0)" } ?? name }

    /// Its argument in a usage line: `[--coupon CODE]`.
    public var usage: String { "[\(synopsis)]" }

    /// Its line under `OPTIONS:` (``HelpText/option(_:_:)``).
    public var helpLine: String { HelpText.option(synopsis, description) }
}

extension ArgumentSpec {
    /// The spec that accepts `options`: those with a value as options, the others as flags.
    ///
    /// - Parameters:
    ///   - options: The declared options.
    ///   - maxPositionals: How many positional arguments are allowed.
    public init(_ options: [CommandOption], maxPositionals: Int = 0) {
        self.init(
            flags: Set(options.filter { $0.value == nil }.map(\.name)),
            options: Set(options.filter { $0.value != nil }.map(\.name)), maxPositionals: maxPositionals)
    }

    /// This spec accepting `options` as well.
    ///
    /// - Parameter options: The options to add.
    /// - Returns: The union of both.
    public func adding(_ options: [CommandOption]) -> ArgumentSpec {
        let added = ArgumentSpec(options)
        return ArgumentSpec(
            flags: flags.union(added.flags), options: self.options.union(added.options), maxPositionals: maxPositionals)
    }
}
