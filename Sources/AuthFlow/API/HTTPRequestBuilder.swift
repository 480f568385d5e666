/// Turns a sign-in call into the HTTP request a transport sends: the one service that decides
/// how requests look on the wire.
///
/// ``HTTPAuthAPI`` asks its builder once per call, after the endpoint is chosen and before the
/// transport sees anything, so an app that needs another header on every request (an app
/// version, a tracing id) swaps the builder instead of touching the operations.
///
/// ## Contract
/// - The request goes to `call`'s method and path with `call`'s body, and carries its credential
///   and, on a `POST`, its idempotency key in whatever headers the backend reads them from:
///   dropping the key lets a repeated request act twice.
/// - The request's ``HTTPRequest/timeout`` is `call`'s, so the transport gives up when the client
///   does.
/// - It is a pure function of `call`: it may be called on any thread, more than once per call.
///
/// Wrapping the default keeps the contract's headers and adds one:
///
/// ```swift
/// struct VersionedRequests: HTTPRequestBuilder {
///     func makeRequest(for call: AuthRequest) -> HTTPRequest {
///         var request = AuthRequestBuilder().makeRequest(for: call)
///         request.headers["X-App-Version"] = "2.1"
///         return request
///     }
/// }
/// let api = HTTPAuthAPI(transport: transport, requestBuilder: VersionedRequests())
/// ```
public protocol HTTPRequestBuilder: Sendable {
    /// Makes the HTTP request for a call.
    ///
    /// - Parameter call: The endpoint, body, credential, key and timeout of the call.
    /// - Returns: The request the transport sends.
    func makeRequest(for call: AuthRequest) -> HTTPRequest
}
