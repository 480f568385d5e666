public import Operations

/// Which failures may have come after the backend acted, so that the engine repeats the attempt
/// with the same idempotency key instead of a new one.
///
/// - Uncertain: ``AuthError/timeout``, ``AuthError/connectionLost`` and
///   ``AuthError/truncatedResponse(received:expected:)`` (the request went out, the answer did not
///   come back whole), ``AuthError/cancelled`` (the connection was closed while the
///   backend may have been working), and a 5xx other than 503 (a gateway's 502 or 504, or a 500
///   after a partial success, say nothing about what happened behind it).
/// - Definite: every refusal the backend explains (wrong code, expired code, lock, terms, rate
///   limit, 503 "not now"), an unreachable server (nothing was sent), and an answer the client
///   could not read.
extension AuthError: OutcomeUncertainError {
    /// Whether the backend may have acted although no answer says so.
    public var outcomeIsUncertain: Bool {
        switch self {
        case .timeout, .connectionLost, .truncatedResponse, .cancelled: true
        case .serverError(let status, _): status != 503
        case .invalidPhone, .invalidCode, .codeExpired, .locked, .termsOutdated, .unauthorized, .rateLimited,
            .malformedResponse, .unreachable, .unexpectedStatus, .idempotencyKeyReused:
            false
        }
    }
}

/// A request cancelled because its launch was cancelled is the launch's cancellation, not a
/// failure of the backend: a Ctrl-C during a request ends the run as interrupted whichever of the
/// request's cancellation and the launch's own finished first.
extension AuthError: CancellationDescribing {
    /// Whether this is ``AuthError/cancelled``.
    public var describesCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }
}
