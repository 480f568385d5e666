public import Foundation

/// Everything that can go wrong talking to the sign-in backend, in the domain's words.
///
/// The HTTP client decodes server errors into this type in one place; callers never see a status
/// code without meaning or a raw `DecodingError`. ``isTransient`` tells a retry policy which
/// failures may succeed if the same request is simply sent again.
public enum AuthError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The backend rejected the phone number.
    case invalidPhone
    /// The code was wrong; `attemptsLeft` more tries are allowed before the number is locked.
    case invalidCode(attemptsLeft: Int)
    /// The code expired, or none was sent in this attempt: request a new one.
    case codeExpired
    /// Too many wrong codes: the number is locked, for `retryAfter` seconds when the backend says.
    case locked(retryAfter: TimeInterval?)
    /// The terms of use must be accepted (again) before going on; `currentVersion` when known.
    case termsOutdated(currentVersion: String?)
    /// The token was missing, expired or not accepted: sign-in must start again.
    case unauthorized
    /// Too many requests; wait `retryAfter` seconds when the backend says.
    case rateLimited(retryAfter: TimeInterval?)
    /// The backend failed (a 5xx status); wait `retryAfter` seconds when it says (a `503` with
    /// `Retry-After`).
    case serverError(status: Int, retryAfter: TimeInterval? = nil)
    /// The backend answered something the contract does not allow; `reason` says what, without
    /// repeating the body.
    case malformedResponse(reason: String)
    /// The answer was cut off: its body ended after `received` of the `expected` bytes its
    /// `Content-Length` announced. The backend may have acted on the request.
    case truncatedResponse(received: Int, expected: Int)
    /// The backend could not be reached.
    case unreachable(reason: String)
    /// No answer came within the client's timeout.
    case timeout
    /// The connection broke after the request was sent: the backend may have acted on it.
    case connectionLost
    /// The caller cancelled the request; its connection was closed.
    case cancelled
    /// The backend refused a request whose `Idempotency-Key` it had already seen with a different
    /// request: a client bug, never worth repeating.
    case idempotencyKeyReused
    /// A status the contract does not give this request, with the error code when the body had one.
    case unexpectedStatus(Int, code: String?)

    /// Whether sending the same request again may succeed.
    ///
    /// Unreachable, timeout, a lost connection or a cut-off answer, 5xx and rate limiting are
    /// transient; everything else needs the person or the app to do something different first.
    public var isTransient: Bool {
        switch self {
        case .unreachable, .timeout, .connectionLost, .truncatedResponse, .serverError, .rateLimited: true
        case .invalidPhone, .invalidCode, .codeExpired, .locked, .termsOutdated, .unauthorized,
            .malformedResponse, .unexpectedStatus, .cancelled, .idempotencyKeyReused:
            false
        }
    }

    /// How long the backend asked to wait, when it said.
    public var retryAfter: TimeInterval? {
        switch self {
        case .locked(let seconds), .rateLimited(let seconds), .serverError(_, let seconds): seconds
        default: nil
        }
    }

    /// A sentence for the person using the app.
    public var description: String {
        switch self {
        case .invalidPhone:
            "This phone number is not accepted. Check it and try again."
        case .invalidCode(let attemptsLeft):
            attemptsLeft == 1
                ? "The code is wrong. You have 1 attempt left."
                : "The code is wrong. You have \(attemptsLeft) attempts left."
        case .codeExpired:
            "The code has expired. Request a new one."
        case .locked(let retryAfter):
            "Too many wrong codes; this number is locked" + (retryAfter.map { " for \(Self.seconds($0))" } ?? "") + "."
        case .termsOutdated(let version):
            "The terms of use have changed" + (version.map { " (now version \($0))" } ?? "")
                + "; accept them to continue."
        case .unauthorized:
            "Your sign-in session has expired. Start again."
        case .rateLimited(let retryAfter):
            "Too many requests; try again" + (retryAfter.map { " in \(Self.seconds($0))" } ?? " later") + "."
        case .serverError(let status, let retryAfter):
            "The server had a problem (status \(status)). Try again"
                + (retryAfter.map { " in \(Self.seconds($0))" } ?? "") + "."
        case .malformedResponse(let reason):
            "The server sent an answer this app does not understand (\(reason))."
        case .truncatedResponse(let received, let expected):
            "The server's answer was cut off: the body ended after \(received) of \(expected) bytes. Try again."
        case .unreachable(let reason):
            "The server cannot be reached (\(reason)). Check the connection."
        case .timeout:
            "The server did not answer in time. Try again."
        case .connectionLost:
            "The connection to the server broke before its answer arrived. Try again."
        case .cancelled:
            "The request was cancelled."
        case .idempotencyKeyReused:
            "The server refused a repeated request that differs from the first one with the same key."
        case .unexpectedStatus(let status, _) where (300...399).contains(status):
            "The server tried to redirect the request (status \(status)); this app does not follow redirects."
        case .unexpectedStatus(let status, let code):
            "The server answered with an unexpected status \(status)" + (code.map { " (\($0))" } ?? "") + "."
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        let whole = Int(value.rounded(.up))
        return whole == 1 ? "1 second" : "\(whole) seconds"
    }
}
