/// The ``HTTPRequestBuilder`` of the sign-in contract (`Docs/HTTP-API.md`): `Accept:
/// application/json` on every request, `Content-Type: application/json` with a body,
/// `Authorization: Bearer <token>`, and `Idempotency-Key` on a `POST`.
///
/// ``HTTPAuthAPI`` uses it unless told otherwise. An app that only needs fixed extra headers
/// passes them here rather than writing a builder of its own:
///
/// ```swift
/// let builder = AuthRequestBuilder(additionalHeaders: ["X-App-Version": "2.1"])
/// let api = HTTPAuthAPI(transport: transport, requestBuilder: builder)
/// ```
public struct AuthRequestBuilder: HTTPRequestBuilder {
    /// Headers added to every request; they never replace the contract's own (`Accept`,
    /// `Content-Type`, `Authorization`, `Idempotency-Key`), so a typo cannot drop a credential.
    public var additionalHeaders: HTTPHeaders

    /// Creates the contract's builder.
    ///
    /// - Parameter additionalHeaders: Headers to add to every request; none by default.
    public init(additionalHeaders: HTTPHeaders = [:]) {
        self.additionalHeaders = additionalHeaders
    }

    /// Makes the request the contract describes for `call`, plus ``additionalHeaders``.
    ///
    /// - Parameter call: The call.
    /// - Returns: The request.
    public func makeRequest(for call: AuthRequest) -> HTTPRequest {
        var request = AuthWireFormat.httpRequest(for: call)
        for (name, value) in additionalHeaders.fields where request.headers[name] == nil {
            request.headers[name] = value
        }
        return request
    }
}
