public import Foundation

/// Turns what went wrong on the wire into the domain's ``AuthError``: an error answer from the
/// backend, or a transport failure with no answer at all.
///
/// The one place that knows the backend's error codes, so an app whose backend adds a code of its
/// own maps it here — and every operation, retry policy and screen sees a domain error, not a
/// status number.
///
/// ## Contract
/// - Every error answer becomes some ``AuthError``: a code the parser does not know falls back on
///   what its status means (``AuthError/unexpectedStatus(_:code:)`` at worst), never a crash.
/// - Transience and certainty follow the error returned (``AuthError/isTransient``,
///   ``AuthError/outcomeIsUncertain``), so a `5xx` should stay ``AuthError/serverError(status:retryAfter:)``
///   for retry policies to rely on it.
/// - Both methods are pure and may be called on any thread.
///
/// Wrapping the default keeps the contract's mapping and adds a code:
///
/// ```swift
/// struct BlockedNumbers: HTTPErrorParser {
///     func error(from response: HTTPResponse, for request: HTTPRequest, now: Date) -> AuthError {
///         let standard = AuthErrorParser()
///         if standard.errorCode(in: response) == "phone_blocked" { return .invalidPhone }
///         return standard.error(from: response, for: request, now: now)
///     }
/// }
/// ```
public protocol HTTPErrorParser: Sendable {
    /// The domain error an error answer means.
    ///
    /// - Parameters:
    ///   - response: An answer the ``HTTPResponseValidator`` judged an error answer.
    ///   - request: The request it answers.
    ///   - now: The client's clock, to read a `Retry-After` date.
    /// - Returns: The domain error.
    func error(from response: HTTPResponse, for request: HTTPRequest, now: Date) -> AuthError

    /// The domain error a transport failure means: no answer arrived.
    ///
    /// - Parameters:
    ///   - failure: Why no answer arrived.
    ///   - request: The request that got none.
    /// - Returns: The domain error.
    func error(from failure: TransportError, for request: HTTPRequest) -> AuthError
}

// MARK: - Default implementations

extension HTTPErrorParser {
    /// The contract's mapping of transport failures (``AuthErrorParser``'s), so a parser that
    /// only maps error answers implements one method.
    ///
    /// - Parameters:
    ///   - failure: Why no answer arrived.
    ///   - request: The request that got none.
    /// - Returns: The domain error.
    public func error(from failure: TransportError, for request: HTTPRequest) -> AuthError {
        AuthErrorParser.error(from: failure)
    }
}
