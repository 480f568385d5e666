/// The exit statuses of opctl, as `--help` lists them.
enum ExitStatus {
    /// Success.
    static let success: Int32 = 0
    /// The run failed; the message names the failed operation and the rerun command.
    static let failure: Int32 = 1
    /// A usage or input error.
    static let usage: Int32 = 2
    /// The terms were declined or the run was cancelled.
    static let cancelled: Int32 = 3
    /// Interrupted by Ctrl-C; the run can be rerun.
    static let interrupted: Int32 = 130
}
