public import Foundation

extension HTTPAuthAPI {
    /// The parts of HTTP around the client's calls, as values: how a request looks on the wire,
    /// how a response is judged before its body is read, and what an error answer or a transport
    /// failure means in the domain's words. Each is the sign-in contract's (`Docs/HTTP-API.md`)
    /// unless replaced; an app replaces one, usually wrapping the contract's, and the endpoints
    /// and the operations stay as they are.
    ///
    /// ```swift
    /// var hooks = HTTPAuthAPI.Hooks(additionalHeaders: ["X-App-Version": "2.1"])
    /// let standard = hooks.errorAnswer
    /// hooks.errorAnswer = { response, request, now in
    ///     HTTPAuthAPI.Hooks.errorCode(in: response) == "phone_blocked"
    ///         ? .invalidPhone : standard(response, request, now)
    /// }
    /// let api = HTTPAuthAPI(transport: transport, hooks: hooks)
    /// ```
    ///
    /// ## Contract
    /// - ``makeRequest``: the request goes to the call's method and path with its body and
    ///   timeout, and carries its credential and, on a `POST`, its idempotency key: dropping the
    ///   key lets a repeated request act twice.
    /// - ``validate``: ``HTTPResponseVerdict/success`` only for a body the endpoint's decoder may
    ///   read, ``HTTPResponseVerdict/errorResponse`` for an error answer; anything neither can
    ///   trust throws an ``AuthError`` that names what is wrong without quoting the body (bodies
    ///   carry tokens).
    /// - ``errorAnswer`` and ``transportFailure``: every failure becomes some ``AuthError``, and a
    ///   `5xx` stays ``AuthError/serverError(status:retryAfter:)`` for retry policies to rely on.
    /// - Every hook is a pure function of its arguments, called on any thread, possibly more than
    ///   once per call.
    public struct Hooks: Sendable {
        /// Makes the HTTP request of a call, once the endpoint is chosen.
        public var makeRequest: @Sendable (_ call: AuthRequest) -> HTTPRequest
        /// Judges a response before its body is read.
        public var validate:
            @Sendable (_ response: HTTPResponse, _ request: HTTPRequest) throws(AuthError) -> HTTPResponseVerdict
        /// The domain error an error answer means; `now` reads a `Retry-After` date.
        public var errorAnswer: @Sendable (_ response: HTTPResponse, _ request: HTTPRequest, _ now: Date) -> AuthError
        /// The domain error a transport failure means: no answer arrived.
        public var transportFailure: @Sendable (_ failure: TransportError, _ request: HTTPRequest) -> AuthError

        /// The contract's hooks: `Accept: application/json` on every request, `Content-Type:
        /// application/json` with a body, `Authorization: Bearer <token>` and `Idempotency-Key`
        /// on a `POST`; a 2xx is an answer and must be whole JSON; the error envelope's codes and
        /// the statuses' meanings as `Docs/HTTP-API.md` tables them.
        ///
        /// - Parameter additionalHeaders: Headers added to every request; they never replace the
        ///   contract's own, so a typo cannot drop a credential.
        public init(additionalHeaders: HTTPHeaders = [:]) {
            makeRequest = { call in
                var request = AuthWireFormat.httpRequest(for: call)
                for (name, value) in additionalHeaders.fields where request.headers[name] == nil {
                    request.headers[name] = value
                }
                return request
            }
            validate = { response, _ throws(AuthError) in try AuthWireFormat.verdict(on: response) }
            errorAnswer = { response, _, now in AuthWireFormat.error(from: response, now: now) }
            transportFailure = { failure, _ in AuthWireFormat.error(from: failure) }
        }

        /// The machine-readable `code` of an error answer's envelope (`{"error": {"code": …}}`),
        /// for an ``errorAnswer`` of an app's own that maps a code the contract does not know.
        ///
        /// - Parameter response: An answer.
        /// - Returns: The code, or `nil` when the body is not the error envelope.
        public static func errorCode(in response: HTTPResponse) -> String? {
            AuthWireFormat.errorBody(in: response)?.code
        }
    }
}

/// What ``HTTPAuthAPI/Hooks/validate`` made of a response it could trust.
public enum HTTPResponseVerdict: Sendable, Hashable {
    /// The endpoint's answer: its decoder reads the body.
    case success
    /// An error answer: ``HTTPAuthAPI/Hooks/errorAnswer`` turns it into the domain error.
    case errorResponse
}
