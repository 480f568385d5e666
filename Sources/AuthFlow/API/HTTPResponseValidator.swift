/// Judges a response before anything reads its body: is it an answer to decode, an error answer
/// for the ``HTTPErrorParser``, or broken?
///
/// Kept apart from decoding so that "the body ended after 12 of 40 bytes" or "an HTML page where
/// JSON was expected" is said once, for every endpoint, in plain words — instead of surfacing as
/// a JSON syntax error or a network error number — and so an app can add a check of its own (a
/// signature header, a required API version) without touching the endpoints.
///
/// ## Contract
/// - Returns ``HTTPResponseVerdict/success`` only for a response whose body the endpoint's
///   decoder may read, and ``HTTPResponseVerdict/errorResponse`` for one the error parser turns
///   into the domain error; anything neither can trust throws.
/// - Throws an ``AuthError`` that names what was wrong without quoting the body (bodies carry
///   tokens): ``AuthError/truncatedResponse(received:expected:)`` for a body cut off (the
///   backend may have acted), ``AuthError/malformedResponse(reason:)`` for one it cannot read.
/// - It is a pure function of its arguments and may be called on any thread.
///
/// Wrapping the default keeps its checks and adds one:
///
/// ```swift
/// struct SignedResponses: HTTPResponseValidator {
///     func validate(_ response: HTTPResponse, for request: HTTPRequest) throws(AuthError)
///         -> HTTPResponseVerdict
///     {
///         let verdict = try AuthResponseValidator().validate(response, for: request)
///         guard response.headers["X-Signature"] != nil else {
///             throw .malformedResponse(reason: "the answer is not signed")
///         }
///         return verdict
///     }
/// }
/// ```
public protocol HTTPResponseValidator: Sendable {
    /// Judges a response.
    ///
    /// - Parameters:
    ///   - response: The response as the transport delivered it.
    ///   - request: The request it answers.
    /// - Returns: Whether it is an answer to decode or an error answer.
    /// - Throws: ``AuthError`` naming what is wrong with it.
    func validate(_ response: HTTPResponse, for request: HTTPRequest) throws(AuthError) -> HTTPResponseVerdict
}

/// What an ``HTTPResponseValidator`` made of a response it could trust.
public enum HTTPResponseVerdict: Sendable, Hashable {
    /// The endpoint's answer: its decoder reads the body.
    case success
    /// An error answer: the ``HTTPErrorParser`` turns it into the domain error.
    case errorResponse
}
