import Foundation

/// The exit statuses of a runner program and what each means, declared once: the commands
/// return these codes, and every help text that lists them (the top-level help, `help run`,
/// `help rerun`) prints them from ``meanings(cancelled:)``, so a code and its help line cannot
/// disagree.
public enum ExitStatus {
    /// Success.
    public static let success: Int32 = 0
    /// The run failed; the message names the failed operation and the rerun command.
    public static let failure: Int32 = 1
    /// A usage or input error.
    public static let usage: Int32 = 2
    /// The run was declined or cancelled.
    public static let cancelled: Int32 = 3
    /// Interrupted by Ctrl-C; the run can be rerun.
    public static let interrupted: Int32 = 130

    /// One exit status and the words its help line says about it.
    public struct Meaning: Sendable, Hashable {
        /// The status the process exits with.
        public var code: Int32
        /// What it means, in the help's words.
        public var text: String

        /// Creates a meaning: `code`, and what it means in the help's words.
        public init(_ code: Int32, _ text: String) {
            self.code = code
            self.text = text
        }
    }

    /// Every status above with its meaning, in order: the table the help is printed from.
    ///
    /// - Parameter cancelled: What ends a run as cancelled, in the program's words; opctl's is
    ///   "terms declined or the run cancelled".
    public static func meanings(cancelled: String = "the run cancelled") -> [Meaning] {
        [
            Meaning(success, "success"),
            Meaning(failure, "the run failed (the message names the failed operation and the rerun command)"),
            Meaning(usage, "usage or input error"),
            Meaning(Self.cancelled, cancelled),
            Meaning(interrupted, "interrupted (Ctrl-C); the run can be rerun"),
        ]
    }

    /// The lines under `EXIT STATUS:`, one per meaning of `meanings` (the table,
    /// ``RunnerConfiguration/exitStatuses``), the codes in a column.
    public static func helpLines(_ meanings: [Meaning]) -> [String] {
        let width = meanings.map { String($0.code).count }.max() ?? 0
        return meanings.map {
            "  \(String($0.code).padding(toLength: width + 2, withPad: " ", startingAt: 0))\($0.text)"
        }
    }

    /// The `EXIT STATUS:` section of a help text: the heading and ``helpLines(_:)``.
    public static func helpSection(_ meanings: [Meaning]) -> String {
        (["EXIT STATUS:"] + helpLines(meanings)).joined(separator: "\n")
    }
}
