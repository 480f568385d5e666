import Foundation
import Operations

/// The sign-in HTTP contract in code: paths, headers, request bodies, response bodies and (in
/// `AuthWireFormat+Errors.swift`) the error envelope, converted to and from domain values.
/// `Docs/HTTP-API.md` describes the same contract in prose; a change to the contract touches this
/// type and that document, nothing else. The client's default ``HTTPAuthAPI/Hooks`` are its public
/// face.
enum AuthWireFormat {
    // MARK: - Requests

    /// The header that carries a step attempt's ``IdempotencyKey`` on a `POST`.
    static let idempotencyKeyHeader = "Idempotency-Key"

    static func submitPhone(_ phone: PhoneNumber) -> AuthRequest {
        post("/v1/auth/phone", body: ["phone": phone.e164])
    }

    static func fetchTerms(phoneToken: PhoneToken) -> AuthRequest {
        AuthRequest(method: .get, path: "/v1/auth/terms", bearerToken: phoneToken.revealed)
    }

    static func acceptTerms(version: String, phoneToken: PhoneToken) -> AuthRequest {
        post("/v1/auth/terms/accept", body: ["version": version], bearer: phoneToken.revealed)
    }

    static func sendCode(phoneToken: PhoneToken) -> AuthRequest {
        post("/v1/auth/code/send", body: [:], bearer: phoneToken.revealed)
    }

    static func verifyCode(_ code: SMSCode, phoneToken: PhoneToken) -> AuthRequest {
        post("/v1/auth/code/verify", body: ["code": code.revealed], bearer: phoneToken.revealed)
    }

    static func fetchSession(authToken: AuthToken) -> AuthRequest {
        AuthRequest(method: .get, path: "/v1/auth/session", bearerToken: authToken.revealed)
    }

    static func signOut(authToken: AuthToken) -> AuthRequest {
        post("/v1/auth/sign-out", body: [:], bearer: authToken.revealed)
    }

    /// The call as HTTP: `Accept: application/json` on every request, `Content-Type` with a body,
    /// the bearer token as `Authorization`, and the idempotency key on a `POST` only (a `GET`
    /// changes nothing, so there is nothing to repeat safely).
    static func httpRequest(for call: AuthRequest) -> HTTPRequest {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if call.body != nil { headers["Content-Type"] = "application/json" }
        if let bearer = call.bearerToken { headers["Authorization"] = "Bearer \(bearer)" }
        if call.method == .post, let key = call.idempotencyKey { headers[idempotencyKeyHeader] = key.rawValue }
        return HTTPRequest(
            method: call.method, path: call.path, headers: headers, body: call.body ?? Data(), timeout: call.timeout)
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

    // MARK: - Helpers

    private static func post(_ path: String, body: [String: String], bearer: String? = nil) -> AuthRequest {
        // Encoding a [String: String] cannot fail; an empty object is the safe fallback anyway.
        let data = (try? sortedEncoder.encode(body)) ?? Data("{}".utf8)
        return AuthRequest(method: .post, path: path, body: data, bearerToken: bearer)
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
}
