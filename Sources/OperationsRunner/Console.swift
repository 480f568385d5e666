import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's standard streams and environment, injected so commands can run in tests
/// without a process.
public struct Console: Sendable {
    /// Writes to standard output.
    public var out: @Sendable (String) -> Void
    /// Writes to standard error.
    public var err: @Sendable (String) -> Void
    /// Reads one line of standard input, without its newline; `nil` at end of input.
    public var readLine: @Sendable () -> String?
    /// Whether standard input is a terminal (prompts are allowed only then).
    public var inputIsTerminal: Bool
    /// Whether standard error is a terminal (colour is allowed only then).
    public var errorIsTerminal: Bool
    /// The environment variables.
    public var environment: [String: String]
    /// How many columns standard output's terminal has, or `nil` when it is not a terminal
    /// (`--width auto` draws for it).
    public var outputColumns: Int? = nil

    /// Creates a console from its streams and environment, each part as its property says;
    /// tests capture the streams.
    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        readLine: @escaping @Sendable () -> String?, inputIsTerminal: Bool, errorIsTerminal: Bool,
        environment: [String: String], outputColumns: Int? = nil
    ) {
        self.out = out
        self.err = err
        self.readLine = readLine
        self.inputIsTerminal = inputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.environment = environment
        self.outputColumns = outputColumns
    }

    /// The real process streams.
    public static var standard: Console {
        Console(
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            err: { FileHandle.standardError.write(Data($0.utf8)) },
            readLine: { Swift.readLine(strippingNewline: true) },
            inputIsTerminal: isatty(STDIN_FILENO) == 1,
            errorIsTerminal: isatty(STDERR_FILENO) == 1,
            environment: ProcessInfo.processInfo.environment,
            outputColumns: terminalColumns(of: STDOUT_FILENO))
    }

    /// The width of the terminal on a descriptor, or `nil` when it is not a terminal.
    private static func terminalColumns(of descriptor: Int32) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Whether to colour standard error: only on a terminal and never with `NO_COLOR` set.
    public var usesColor: Bool {
        errorIsTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    /// Writes a line to standard output.
    public func print(_ line: String) { out(line + "\n") }

    /// Writes a line to standard error.
    public func note(_ line: String) { err(line + "\n") }

    /// Writes `text` dimmed or coloured when colour is allowed.
    public func styled(_ text: String, _ style: Style) -> String {
        usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// ANSI styles used on standard error.
    public enum Style: String, Sendable {
        /// Secondary text: run ids, replayed and skipped steps.
        case dim = "2"
        /// Failures.
        case red = "31"
        /// Successes.
        case green = "32"
        /// What needs the user's eyes, like a simulated SMS.
        case yellow = "33"
        /// Step names.
        case bold = "1"
    }
}
