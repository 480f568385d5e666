/// An error that knows whether trying again can help.
///
/// Retry policies retry only transient errors by default; adopt this protocol in a domain error
/// to classify its cases (a timeout is transient, a wrong password is not).
public protocol RetryableError: Error {
    /// Whether the same launch, repeated later, may succeed.
    var isTransient: Bool { get }

    /// How long the error's source asked to be left alone before the launch is repeated — an
    /// HTTP `Retry-After`, a lock's remaining time — or `nil` when it did not say.
    ///
    /// A ``RetryPolicy`` waits at least this long before its retry, and no longer than its
    /// ``RetryPolicy/maxRequestedDelay``: a server that asked for 29 s and is asked again after
    /// 0.2 s only refuses again. `nil` by default.
    var retryDelay: Duration? { get }
}

extension RetryableError {
    /// No delay of its own: the policy's backoff decides.
    public var retryDelay: Duration? { nil }
}

/// An error that may have come after the request it answers took effect: a response lost on the
/// way back, a timeout, a connection closed mid-answer.
///
/// The engine cannot tell "the backend refused" from "the answer got lost"; a domain error says
/// so here. Keys do not depend on it: every retry and rerun of a request repeats its
/// ``IdempotencyKey`` whatever the error. What it is still for: a step whose request failed this
/// way is *in doubt* (`StepRecord/isInDoubt`) — `show` marks it, and a journal without keys
/// stops the rerun before it rather than risk a second effect. Cancellation and the engine's own
/// timeout are uncertain too.
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
