public import Foundation

/// The ``HTTPErrorParser`` of the sign-in contract: the error envelope's codes and the statuses'
/// meanings as `Docs/HTTP-API.md` tables them, and transport failures in the domain's words.
///
/// ``HTTPAuthAPI`` uses it unless told otherwise; a parser of an app's own usually wraps it (see
/// ``HTTPErrorParser``).
public struct AuthErrorParser: HTTPErrorParser {
    /// Creates the contract's parser.
    public init() {}

    /// Decodes an error answer: any `5xx` is ``AuthError/serverError(status:retryAfter:)``; otherwise a known
    /// `code` decides, then the status alone, then ``AuthError/unexpectedStatus(_:code:)``.
    ///
    /// - Parameters:
    ///   - response: The error answer.
    ///   - request: The request it answers.
    ///   - now: The client's clock, to read a `Retry-After` date.
    /// - Returns: The domain error.
    public func error(from response: HTTPResponse, for request: HTTPRequest, now: Date) -> AuthError {
        AuthWireFormat.error(from: response, now: now)
    }

    /// The machine-readable `code` of an error answer's envelope (`{"error": {"code": …}}`), so a
    /// parser of an app's own can map a code the contract does not know.
    ///
    /// - Parameter response: An answer.
    /// - Returns: The code, or `nil` when the body is not the error envelope.
    public func errorCode(in response: HTTPResponse) -> String? {
        AuthWireFormat.errorBody(in: response)?.code
    }

    /// Maps a transport failure one to one: ``TransportError/invalidResponse(reason:)`` is an
    /// answer the client cannot read, ``AuthError/malformedResponse(reason:)``.
    ///
    /// - Parameters:
    ///   - failure: Why no answer arrived.
    ///   - request: The request that got none.
    /// - Returns: The domain error.
    public func error(from failure: TransportError, for request: HTTPRequest) -> AuthError {
        Self.error(from: failure)
    }

    static func error(from failure: TransportError) -> AuthError {
        switch failure {
        case .timeout: .timeout
        case .cancelled: .cancelled
        case .connectionLost: .connectionLost
        case .unreachable(let reason): .unreachable(reason: reason)
        case .invalidResponse(let reason): .malformedResponse(reason: reason)
        }
    }
}
