public import Foundation
public import Operations

/// One call to the sign-in backend as the client means it, before it is HTTP: which endpoint, the
/// JSON body, the credential and the attempt's key.
///
/// ``HTTPAuthAPI`` makes one per call and hands it to its ``HTTPAuthAPI/Hooks/makeRequest``, which turns it
/// into the ``HTTPRequest`` a transport sends. Keeping the two apart lets an app change how every
/// request looks on the wire (an extra header, another header name for the credential) without
/// touching the endpoints or the operations that call them.
///
/// Printing one shows the method, the path and what it carries, never the token, the key or the
/// body, because they are secrets.
public struct AuthRequest: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public var method: HTTPMethod
    /// The path relative to the server's base URL, starting with `/`, e.g. `/v1/auth/phone`.
    public var path: String
    /// The JSON body; `nil` for a request without one (a `GET`).
    public var body: Data?
    /// The token that authorises the call (a phone token or an access token); `nil` for none.
    public var bearerToken: String?
    /// The key of the step attempt this call belongs to, so the backend answers a repeat instead
    /// of acting twice; the wire format sends it on a `POST` only.
    public var idempotencyKey: IdempotencyKey?
    /// How long the client waits for the answer.
    public var timeout: Duration

    /// Creates a call from its values, each as its property says.
    public init(
        method: HTTPMethod, path: String, body: Data? = nil, bearerToken: String? = nil,
        idempotencyKey: IdempotencyKey? = nil, timeout: Duration = .seconds(30)
    ) {
        self.method = method
        self.path = path
        self.body = body
        self.bearerToken = bearerToken
        self.idempotencyKey = idempotencyKey
        self.timeout = timeout
    }

    /// `POST /v1/auth/code/verify (bearer, key, 14 bytes)`: what it carries, not its secrets.
    public var description: String {
        let carried =
            [bearerToken.map { _ in "bearer" }, idempotencyKey.map { _ in "key" }, body.map { "\($0.count) bytes" }]
            .compactMap { $0 }
        return "\(method.rawValue) \(path)" + (carried.isEmpty ? "" : " (\(carried.joined(separator: ", ")))")
    }
}
