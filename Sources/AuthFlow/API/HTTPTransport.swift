/// Sends an HTTP request and delivers the response: the seam between the sign-in client and the
/// network, where the simulated backend plugs in (mocks at the lowest layer).
///
/// ## Contract
/// - `completion` is called at most once, on any thread, and never before `send` could return
///   (no re-entrant delivery on the caller's stack is assumed by callers, but it is allowed).
/// - Any status, 2xx or not, is a `.success`: judging statuses is the client's job.
/// - `.failure` means no HTTP response arrived: ``TransportError``.
/// - A transport should give up after ``HTTPRequest/timeout`` with ``TransportError/timeout``; the
///   client enforces its own timeout as well, so a transport that never answers is not fatal.
public protocol HTTPTransport: Sendable {
    /// Sends a request.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - completion: Receives the response or why there is none.
    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void)
}

/// Why no HTTP response arrived.
public enum TransportError: Error, Sendable, Hashable {
    /// The server could not be reached: no connection, DNS failure, connection reset.
    case unreachable(reason: String)
    /// The server did not answer in time.
    case timeout
}
