import Foundation

/// The error half of the contract: the envelope every non-2xx answer carries, the codes in it, and
/// what each status means when the code does not say (`Docs/HTTP-API.md`, "Errors").
extension AuthWireFormat {
    /// The envelope's inner object: `{"error": {"code": …, "attemptsLeft": …, …}}`.
    struct ErrorBody: Decodable {
        let code: String
        let attemptsLeft: Int?
        let retryAfter: Double?
        let currentVersion: String?
    }

    /// The envelope's inner object, or `nil` when the body is not the envelope.
    static func errorBody(in response: HTTPResponse) -> ErrorBody? {
        struct Envelope: Decodable {
            let error: ErrorBody
        }
        return try? JSONDecoder().decode(Envelope.self, from: response.body).error
    }

    /// Decodes any non-success response into the domain error: the one place that knows the error
    /// envelope, the error codes and what each status means.
    static func error(from response: HTTPResponse, now: Date) -> AuthError {
        let body = errorBody(in: response)
        let retryAfter = retryAfterSeconds(response.headers["Retry-After"], now: now) ?? body?.retryAfter
        let status = response.status
        // A 5xx is transient whatever its body says, so a retry policy can rely on the status.
        if (500...599).contains(status) { return .serverError(status: status, retryAfter: retryAfter) }
        switch body?.code {
        case "invalid_phone": return .invalidPhone
        case "invalid_code": return .invalidCode(attemptsLeft: max(0, body?.attemptsLeft ?? 0))
        case "code_expired": return .codeExpired
        case "locked": return .locked(retryAfter: retryAfter)
        case "terms_outdated", "terms_not_accepted": return .termsOutdated(currentVersion: body?.currentVersion)
        case "unauthorized": return .unauthorized
        case "rate_limited": return .rateLimited(retryAfter: retryAfter)
        case "idempotency_key_reused": return .idempotencyKeyReused
        default: break
        }
        // Unknown or missing code: fall back on what the status alone means in the contract.
        switch status {
        case 401: return .unauthorized
        case 410: return .codeExpired
        case 423: return .locked(retryAfter: retryAfter)
        case 429: return .rateLimited(retryAfter: retryAfter)
        default: return .unexpectedStatus(status, code: body?.code)
        }
    }

    /// Reads `Retry-After` as delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
    static func retryAfterSeconds(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return TimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
