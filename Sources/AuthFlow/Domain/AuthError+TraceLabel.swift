public import Operations

/// In a diagram, an error is a few words a reader scans — `onFinish(error: server error 503)`,
/// `retry 2 of 3: server error 503` — not the sentence the CLI prints.
extension AuthError: TraceLabelConvertible {
    /// The error in a few words, secret-free (it carries no token or code).
    public var traceLabel: String {
        switch self {
        case .invalidPhone: "invalid phone"
        case .invalidCode(let attemptsLeft): "wrong code, \(attemptsLeft) left"
        case .codeExpired: "code expired"
        case .locked: "locked"
        case .termsOutdated(let version): version.map { "terms outdated, now v\($0)" } ?? "terms outdated"
        case .unauthorized: "unauthorized"
        case .rateLimited: "rate limited"
        case .serverError(let status, _): "server error \(status)"
        case .malformedResponse: "malformed response"
        case .truncatedResponse: "truncated response"
        case .unreachable: "unreachable"
        case .timeout: "timeout"
        case .connectionLost: "connection lost"
        case .cancelled: "cancelled"
        case .idempotencyKeyReused: "idempotency key reused"
        case .unexpectedStatus(let status, _): "HTTP \(status)"
        }
    }
}
