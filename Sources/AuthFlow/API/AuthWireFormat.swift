import Foundation

/// The sign-in HTTP contract in code: paths, request bodies, response bodies and the error
/// envelope, converted to and from domain values. `Docs/HTTP-API.md` describes the same contract
/// in prose; a change to the contract touches this file and that document, nothing else.
enum AuthWireFormat {
    // MARK: - Requests

    /// The header that carries a step attempt's ``IdempotencyKey`` on a `POST`.
    static let idempotencyKeyHeader = "Idempotency-Key"

    static func submitPhone(_ phone: PhoneNumber) -> HTTPRequest {
        post("/v1/auth/phone", body: ["phone": phone.e164])
    }

    static func fetchTerms(phoneToken: PhoneToken) -> HTTPRequest {
        HTTPRequest(method: .get, path: "/v1/auth/terms", headers: headers(bearer: phoneToken.revealed))
    }

    static func acceptTerms(version: String, phoneToken: PhoneToken) -> HTTPRequest {
        post("/v1/auth/terms/accept", body: ["version": version], bearer: phoneToken.revealed)
    }

    static func sendCode(phoneToken: PhoneToken) -> HTTPRequest {
        post("/v1/auth/code/send", body: [:], bearer: phoneToken.revealed)
    }

    static func verifyCode(_ code: SMSCode, phoneToken: PhoneToken) -> HTTPRequest {
        post("/v1/auth/code/verify", body: ["code": code.revealed], bearer: phoneToken.revealed)
    }

    static func fetchSession(authToken: AuthToken) -> HTTPRequest {
        HTTPRequest(method: .get, path: "/v1/auth/session", headers: headers(bearer: authToken.revealed))
    }

    static func signOut(authToken: AuthToken) -> HTTPRequest {
        post("/v1/auth/sign-out", body: [:], bearer: authToken.revealed)
    }

    // MARK: - Responses

    static func phoneSession(from response: HTTPResponse) throws(AuthError) -> PhoneSession {
        struct Body: Decodable {
            let phoneToken: String
            let termsRequired: Bool
            let codeLength: Int
        }
        let body = try decode(Body.self, from: response)
        try require(!body.phoneToken.isEmpty, "empty “phoneToken”")
        try require((1...12).contains(body.codeLength), "“codeLength” out of range")
        return PhoneSession(
            phoneToken: PhoneToken(body.phoneToken), termsRequired: body.termsRequired, codeLength: body.codeLength)
    }

    static func terms(from response: HTTPResponse) throws(AuthError) -> TermsOfUse {
        struct Body: Decodable {
            let version: String
            let text: String
        }
        let body = try decode(Body.self, from: response)
        try require(!body.version.isEmpty, "empty “version”")
        return TermsOfUse(version: body.version, text: body.text)
    }

    static func termsAcceptance(from response: HTTPResponse, now: Date) throws(AuthError) -> TermsAcceptance {
        struct Body: Decodable {
            let acceptedVersion: String
            let phoneToken: String
            let accessToken: String?
            let expiresIn: Double?
        }
        let body = try decode(Body.self, from: response)
        try require(!body.phoneToken.isEmpty, "empty “phoneToken”")
        var authToken: AuthToken?
        if let accessToken = body.accessToken {
            authToken = try self.authToken(accessToken, expiresIn: body.expiresIn, now: now)
        }
        return TermsAcceptance(
            acceptedVersion: body.acceptedVersion, phoneToken: PhoneToken(body.phoneToken), authToken: authToken)
    }

    static func codeDelivery(from response: HTTPResponse) throws(AuthError) -> CodeDelivery {
        struct Body: Decodable {
            let resendAfter: Double
            let codeLength: Int
        }
        let body = try decode(Body.self, from: response)
        try require(body.resendAfter >= 0, "negative “resendAfter”")
        try require((1...12).contains(body.codeLength), "“codeLength” out of range")
        return CodeDelivery(resendAfter: body.resendAfter, codeLength: body.codeLength)
    }

    static func authToken(from response: HTTPResponse, now: Date) throws(AuthError) -> AuthToken {
        struct Body: Decodable {
            let accessToken: String
            let expiresIn: Double
        }
        let body = try decode(Body.self, from: response)
        return try authToken(body.accessToken, expiresIn: body.expiresIn, now: now)
    }

    static func sessionStatus(from response: HTTPResponse) throws(AuthError) -> SessionStatus {
        struct Body: Decodable {
            let phone: String
            let termsVersion: String
            let acceptedTermsVersion: String?
            let phoneToken: String?
        }
        let body = try decode(Body.self, from: response)
        let phone: PhoneNumber
        do {
            phone = try PhoneNumber(parsing: body.phone, convention: nil)
        } catch {
            throw .malformedResponse(reason: "“phone” is not an E.164 number")
        }
        return SessionStatus(
            phone: phone, termsVersion: body.termsVersion, acceptedTermsVersion: body.acceptedTermsVersion,
            phoneToken: body.phoneToken.map(PhoneToken.init))
    }

    /// Checks the sign-out answer: an object, `{}` today; its fields, if any, are ignored.
    static func signedOut(from response: HTTPResponse) throws(AuthError) {
        struct Body: Decodable {}
        _ = try decode(Body.self, from: response)
    }

    // MARK: - Errors

    /// Decodes any non-success response into the domain error: the one place that knows the error
    /// envelope, the error codes and what each status means.
    static func error(from response: HTTPResponse, now: Date) -> AuthError {
        struct Envelope: Decodable {
            struct Body: Decodable {
                let code: String
                let attemptsLeft: Int?
                let retryAfter: Double?
                let currentVersion: String?
            }
            let error: Body
        }
        let body = try? JSONDecoder().decode(Envelope.self, from: response.body).error
        let retryAfter = retryAfterSeconds(response.headers["Retry-After"], now: now) ?? body?.retryAfter
        let status = response.status
        // A 5xx is transient whatever its body says, so a retry policy can rely on the status.
        if (500...599).contains(status) { return .serverError(status: status) }
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

    // MARK: - Helpers

    private static func post(_ path: String, body: [String: String], bearer: String? = nil) -> HTTPRequest {
        var headers = headers(bearer: bearer)
        headers["Content-Type"] = "application/json"
        // Encoding a [String: String] cannot fail; an empty object is the safe fallback anyway.
        let data = (try? sortedEncoder.encode(body)) ?? Data("{}".utf8)
        return HTTPRequest(method: .post, path: path, headers: headers, body: data)
    }

    private static func headers(bearer: String?) -> HTTPHeaders {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        return headers
    }

    private static let sortedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func authToken(_ token: String, expiresIn: Double?, now: Date) throws(AuthError) -> AuthToken {
        try require(!token.isEmpty, "empty “accessToken”")
        guard let expiresIn else { throw .malformedResponse(reason: "missing field “expiresIn”") }
        try require(expiresIn > 0, "“expiresIn” is not positive")
        return AuthToken(token, expiresAt: now.addingTimeInterval(expiresIn))
    }

    private static func require(_ condition: Bool, _ reason: String) throws(AuthError) {
        if !condition { throw .malformedResponse(reason: reason) }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws(AuthError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch let error as DecodingError {
            throw .malformedResponse(reason: reason(error))
        } catch {
            throw .malformedResponse(reason: "the body could not be read")
        }
    }

    /// Says what was wrong in the body without quoting it, since bodies carry tokens.
    private static func reason(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            return keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing field “\(path(context, key))”"
        case .typeMismatch(_, let context): return "field “\(path(context))” has the wrong type"
        case .valueNotFound(_, let context): return "field “\(path(context))” is null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not valid JSON" : "field “\(path(context))” is invalid"
        @unknown default: return "the body does not match the contract"
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
