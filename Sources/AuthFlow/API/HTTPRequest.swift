public import Foundation

/// An HTTP method the sign-in contract uses.
public enum HTTPMethod: String, Sendable, Hashable, Codable {
    /// Reads a resource.
    case get = "GET"
    /// Submits data.
    case post = "POST"
}

/// A request as a transport sends it: method, path relative to the server's base URL, headers
/// and body.
///
/// Printing a request shows the bearer token redacted and the body's size, never its content,
/// because bodies carry SMS codes.
public struct HTTPRequest: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public var method: HTTPMethod
    /// The path, starting with `/`, e.g. `/v1/auth/phone`.
    public var path: String
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body; empty for none.
    public var body: Data
    /// How long the caller will wait for the response; a transport should give up by then.
    public var timeout: Duration

    /// Creates a request.
    public init(
        method: HTTPMethod, path: String, headers: HTTPHeaders = [:], body: Data = Data(),
        timeout: Duration = .seconds(30)
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// `POST /v1/auth/code/verify [authorization: Bearer sim…a1f3] (14 bytes)`.
    public var description: String {
        "\(method.rawValue) \(path) [\(headers.redactedDescription)] (\(body.count) bytes)"
    }
}

/// A response as a transport delivers it.
public struct HTTPResponse: Sendable, Hashable, CustomStringConvertible {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body; empty for none.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `200 (57 bytes)`: the body is not shown because it carries tokens.
    public var description: String { "\(status) (\(body.count) bytes)" }
}
