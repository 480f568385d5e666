/// The exit statuses of a runner program, as its `--help` lists them; declared once so that
/// every command and the help agree.
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

    /// The `EXIT STATUS:` lines of the top-level help, one per status above.
    ///
    /// - Parameter cancelled: What ends a run as cancelled, in the program's words.
    public static func helpLines(cancelled: String) -> [String] {
        [
            "  \(success)    success",
            "  \(failure)    the run failed (the message names the failed operation and the rerun command)",
            "  \(usage)    usage or input error",
            "  \(Self.cancelled)    \(cancelled)",
            "  \(interrupted)  interrupted (Ctrl-C); the run can be rerun",
        ]
    }
}
