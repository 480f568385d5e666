/// How a failed run reads when its program knows better than the runner: the runner says
/// "STEP failed: cause" and offers a rerun, but some failures outlive the run (opctl: an
/// expired sign-in attempt), so rerunning cannot help and the hint says what can.
public struct FailureReading: Sendable {
    /// The line after `PROGRAM: `.
    public var message: String
    /// The line under it, if any.
    public var hint: String?
    /// Whether a rerun command is offered.
    public var rerunnable: Bool

    /// Creates a reading.
    ///
    /// - Parameters:
    ///   - message: The line after `PROGRAM: `.
    ///   - hint: The line under it, if any.
    ///   - rerunnable: Whether a rerun command is offered.
    public init(message: String, hint: String? = nil, rerunnable: Bool) {
        self.message = message
        self.hint = hint
        self.rerunnable = rerunnable
    }
}
