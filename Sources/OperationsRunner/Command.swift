/// One command of a runner program, shaped like an argument-parser command written by hand: a
/// name, a one-line abstract, its help text, what arguments it takes, and how it runs. Public so
/// that a program's own commands (opctl's `serve`) sit in one table with the runner's; the table
/// is part of a ``RunnerConfiguration`` value, so a command's metatype is sendable.
public protocol Command: SendableMetatype {
    /// The word after the program's name.
    static var name: String { get }
    /// One line for the program's `--help`.
    static var abstract: String { get }
    /// The full `PROGRAM help NAME` text.
    static var help: String { get }
    /// The flags, options and positionals it takes.
    static var spec: ArgumentSpec { get }
    /// Runs the command and returns its exit status.
    ///
    /// - Throws: ``UsageError`` (exit 2) or another error with a sentence (exit 1).
    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32
}
