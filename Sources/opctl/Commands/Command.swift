import OperationsRunner

/// One opctl command, shaped like an argument-parser command written by hand: a name, a
/// one-line abstract, its help text, what arguments it takes, and how it runs.
protocol Command {
    /// The word after `opctl`.
    static var name: String { get }
    /// One line for `opctl --help`.
    static var abstract: String { get }
    /// The full `opctl help NAME` text.
    static var help: String { get }
    /// The flags, options and positionals it takes.
    static var spec: ArgumentSpec { get }
    /// Runs the command.
    ///
    /// - Returns: The exit status.
    /// - Throws: ``UsageError`` (exit 2) or another error with a sentence (exit 1).
    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32
}

/// Options several commands share.
enum CommonOptions {
    static let stateDirHelp =
        "  --state-dir DIR        Where runs are kept (default: $OPCTL_STATE_DIR, $XDG_STATE_HOME/opctl or ~/.local/state/opctl)"
    /// The simulator's options by example; `run`, `rerun` and `serve` parse them alike (``BackendSpec``).
    static let simulatorExample = "sim:?code=123456&terms=1&termsVersion=2&latency=50&fail=code.verify:2,phone:1"
    static let backendHelp = """
          --backend SPEC         sim: (default) — the embedded simulator, with options
                                 \(simulatorExample)
                                 or an http:// / https:// base URL of a real server
        """
    static let jsonHelp = "  --json                 Print one JSON object on standard output"
}
