/// An error that knows whether trying again can help.
///
/// Retry policies retry only transient errors by default; adopt this protocol in a domain error
/// to classify its cases (a timeout is transient, a wrong password is not).
public protocol RetryableError: Error {
    /// Whether the same launch, repeated later, may succeed.
    var isTransient: Bool { get }
}

/// An error that may have come after the request it answers took effect: a response lost on the
/// way back, a timeout, a connection closed mid-answer.
///
/// The engine cannot tell "the backend refused" from "the answer got lost"; a domain error says
/// so here. An attempt of a step with side effects that failed with an uncertain outcome is
/// treated like one in doubt: a retry or a rerun of it with the same input reuses its
/// ``IdempotencyKey``, so the backend answers the repeat instead of acting twice. Cancellation
/// and the engine's own timeout are uncertain too.
public protocol OutcomeUncertainError: Error {
    /// Whether the request may have taken effect although no answer says so.
    var outcomeIsUncertain: Bool { get }
}

extension Error {
    /// Whether the request this error answers may have taken effect: a domain
    /// ``OutcomeUncertainError`` says for itself; the engine's cancellation and timeout are
    /// uncertain; any other error is a definite answer.
    public var outcomeIsUncertain: Bool {
        if let failure = self as? StepFailure { return failure.error.outcomeIsUncertain }
        if let error = self as? any OutcomeUncertainError { return error.outcomeIsUncertain }
        if let error = self as? OpError { return error == .cancelled || error == .timedOut }
        return self is CancellationError
    }
}
