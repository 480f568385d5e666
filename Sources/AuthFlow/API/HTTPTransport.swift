public import Operations

/// Sends an HTTP request and delivers the response: the seam between the sign-in client and the
/// network, where the simulated backend plugs in (mocks at the lowest layer).
///
/// ## Contract
/// - `completion` is called at most once, on any thread, and never before `send` could return
///   (no re-entrant delivery on the caller's stack is assumed by callers, but it is allowed).
/// - Any status, 2xx or not, is a `.success`: judging statuses is the client's job. Redirects are
///   never followed: a 3xx is delivered as it is.
/// - `.failure` means no HTTP response arrived that the client could read: ``TransportError``.
/// - A response whose connection broke before its body was complete is delivered as it came, with
///   its head's `Content-Length` and the bytes that arrived, so the client's
///   ``HTTPAuthAPI/Hooks/validate`` can say how much was missing; without a `Content-Length` to measure
///   by, it is ``TransportError/connectionLost``.
/// - When `cancellation` fires, the transport stops the request at once and closes its
///   connection, so the server sees the client leave; it then completes with
///   ``TransportError/cancelled`` or not at all (the client has already moved on).
/// - A transport should give up after ``HTTPRequest/timeout`` with ``TransportError/timeout``; the
///   client enforces its own timeout as well, by firing `cancellation`, so a transport that never
///   answers is not fatal.
public protocol HTTPTransport: Sendable {
    /// Sends a request.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - cancellation: Fired to abandon the request; `nil` when it cannot be abandoned.
    ///   - completion: Receives the response or why there is none.
    func send(
        _ request: HTTPRequest, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void)
}

extension HTTPTransport {
    /// Sends a request that cannot be abandoned.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - completion: Receives the response or why there is none.
    public func send(
        _ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        send(request, cancellation: nil, completion: completion)
    }
}

/// Why no HTTP response arrived.
public enum TransportError: Error, Sendable, Hashable {
    /// The server could not be reached: no connection, DNS failure, connection refused. Nothing
    /// was sent.
    case unreachable(reason: String)
    /// The connection broke after the request was sent; the server may have acted on it.
    case connectionLost
    /// The server did not answer in time.
    case timeout
    /// The caller cancelled the request.
    case cancelled
    /// Something came back that is not an HTTP answer the client can read — garbled, or a chain
    /// of redirects that never ended; `reason` says which in a few plain words.
    case invalidResponse(reason: String)
}
