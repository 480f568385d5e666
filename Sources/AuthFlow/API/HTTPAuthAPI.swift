public import Foundation
import Operations

/// ``AuthAPI`` as an HTTP/JSON client over an ``HTTPTransport``: the same code path against a real
/// server (``URLSessionTransport``) and the embedded ``SimulatedBackend``.
///
/// The wire format lives in one internal type, so this type only sends, times out and maps.
///
/// ```swift
/// let api = HTTPAuthAPI(transport: SimulatedBackend())
/// api.submitPhone(try PhoneNumber(parsing: "+7 999 123-45-67")) { result in … }
/// ```
public struct HTTPAuthAPI: AuthAPI {
    private let transport: any HTTPTransport
    private let timeout: Duration
    private let now: @Sendable () -> Date

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: Where requests go.
    ///   - timeout: How long each request may take before it completes with ``AuthError/timeout``;
    ///     enforced by the client itself, whatever the transport does.
    ///   - now: The clock that turns `expiresIn` into an expiry date.
    public init(
        transport: any HTTPTransport, timeout: Duration = .seconds(15),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.transport = transport
        self.timeout = timeout
        self.now = now
    }

    /// Starts a sign-in attempt: `POST /v1/auth/phone`.
    public func submitPhone(
        _ phone: PhoneNumber, completion: @escaping @Sendable (Result<PhoneSession, AuthError>) -> Void
    ) {
        perform(AuthWireFormat.submitPhone(phone), completion: completion) { response, _ throws(AuthError) in
            try AuthWireFormat.phoneSession(from: response)
        }
    }

    /// Fetches the terms: `GET /v1/auth/terms`.
    public func fetchTerms(
        phoneToken: PhoneToken, completion: @escaping @Sendable (Result<TermsOfUse, AuthError>) -> Void
    ) {
        perform(AuthWireFormat.fetchTerms(phoneToken: phoneToken), completion: completion) {
            response, _ throws(AuthError) in
            try AuthWireFormat.terms(from: response)
        }
    }

    /// Accepts the terms: `POST /v1/auth/terms/accept`.
    public func acceptTerms(
        version: String, phoneToken: PhoneToken,
        completion: @escaping @Sendable (Result<TermsAcceptance, AuthError>) -> Void
    ) {
        let request = AuthWireFormat.acceptTerms(version: version, phoneToken: phoneToken)
        perform(request, completion: completion) { response, now throws(AuthError) in
            try AuthWireFormat.termsAcceptance(from: response, now: now)
        }
    }

    /// Sends the SMS code: `POST /v1/auth/code/send`.
    public func sendCode(
        phoneToken: PhoneToken, completion: @escaping @Sendable (Result<CodeDelivery, AuthError>) -> Void
    ) {
        perform(AuthWireFormat.sendCode(phoneToken: phoneToken), completion: completion) {
            response, _ throws(AuthError) in
            try AuthWireFormat.codeDelivery(from: response)
        }
    }

    /// Exchanges the code for an access token: `POST /v1/auth/code/verify`.
    public func verifyCode(
        _ code: SMSCode, phoneToken: PhoneToken, completion: @escaping @Sendable (Result<AuthToken, AuthError>) -> Void
    ) {
        let request = AuthWireFormat.verifyCode(code, phoneToken: phoneToken)
        perform(request, completion: completion) { response, now throws(AuthError) in
            try AuthWireFormat.authToken(from: response, now: now)
        }
    }

    /// Checks a saved access token: `GET /v1/auth/session`.
    public func fetchSession(
        authToken: AuthToken, completion: @escaping @Sendable (Result<SessionStatus, AuthError>) -> Void
    ) {
        perform(AuthWireFormat.fetchSession(authToken: authToken), completion: completion) {
            response, _ throws(AuthError) in
            try AuthWireFormat.sessionStatus(from: response)
        }
    }

    /// Sends a request, races it against the timeout, and decodes a 2xx with `decode` or anything
    /// else with the shared error decoder.
    private func perform<Value: Sendable>(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<Value, AuthError>) -> Void,
        decode: @escaping @Sendable (HTTPResponse, Date) throws(AuthError) -> Value
    ) {
        var request = request
        request.timeout = timeout
        let once = CompletionOnce(completion)
        let now = self.now
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) {
            once.complete(.failure(.timeout))
        }
        transport.send(request) { result in
            switch result {
            case .failure(.timeout):
                once.complete(.failure(.timeout))
            case .failure(.unreachable(let reason)):
                once.complete(.failure(.unreachable(reason: reason)))
            case .success(let response) where (200...299).contains(response.status):
                do throws(AuthError) {
                    once.complete(.success(try decode(response, now())))
                } catch {
                    once.complete(.failure(error))
                }
            case .success(let response):
                once.complete(.failure(AuthWireFormat.error(from: response, now: now())))
            }
        }
    }
}

/// Delivers the first result only: the transport's answer and the timeout race, and the loser is
/// dropped so the caller's completion runs exactly once.
///
/// The completion is released as soon as it has run, because the pending timeout timer keeps this
/// box alive until its deadline and must not keep the caller (an operation) alive with it.
private final class CompletionOnce<Value: Sendable>: Sendable {
    private let completion: LockedState<(@Sendable (Result<Value, AuthError>) -> Void)?>

    init(_ completion: @escaping @Sendable (Result<Value, AuthError>) -> Void) {
        self.completion = LockedState(completion)
    }

    func complete(_ result: Result<Value, AuthError>) {
        let pending = completion.withLock { stored in
            defer { stored = nil }
            return stored
        }
        pending?(result)
    }
}
