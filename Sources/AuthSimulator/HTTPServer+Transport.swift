public import AuthFlow
import Foundation
public import LoopbackHTTP
import Operations

extension HTTPServer {
    /// Starts a server that answers every request through an ``HTTPTransport``, usually a
    /// ``SimulatedBackend``: how `opctl serve` and the tests put the simulator on a real port.
    ///
    /// The transport's answers are sent as they are. When it fails, the client sees what it would
    /// see behind a real gateway: a lost answer (``TransportError/connectionLost``, the
    /// simulator's lost-response fault) closes the connection without one, a timeout is `504`,
    /// anything else `502`. A request the server abandons (the client left, the answer took
    /// longer than `limits.answerTimeout`, the server stopped) cancels the transport's request.
    ///
    /// ```swift
    /// let server = try HTTPServer(serving: SimulatedBackend(), port: 0) { print($0) }
    /// print(server.baseURL)      // POST /v1/auth/phone 200 0.8 ms …
    /// server.stop()
    /// ```
    ///
    /// - Parameters:
    ///   - transport: Answers the requests; called on the server's thread.
    ///   - host: The IP address to listen on; `127.0.0.1` (this machine only) by default.
    ///   - port: The port; 0 lets the system pick a free one.
    ///   - limits: Timeouts and sizes; the answer timeout is also each request's ``HTTPRequest/timeout``.
    ///   - log: Called once per request with its outcome; never sees bodies or header values.
    /// - Throws: ``HTTPServerError`` when the address cannot be listened on.
    public convenience init(
        serving transport: any HTTPTransport, host: String = "127.0.0.1", port: UInt16 = 0,
        limits: Limits = Limits(), log: (@Sendable (LogEntry) -> Void)? = nil
    ) throws(HTTPServerError) {
        try self.init(
            host: host, port: port, limits: limits, log: log,
            answering: Self.handler(for: transport, timeout: limits.answerTimeout))
    }

    /// The handler that answers through `transport`, for a server that also does something of its
    /// own with each request (the tests record and hold them) before the transport answers.
    ///
    /// - Parameters:
    ///   - transport: Answers the requests.
    ///   - timeout: Each request's ``HTTPRequest/timeout``.
    /// - Returns: A handler for ``HTTPServer/init(host:port:limits:log:answering:)``.
    public static func handler(for transport: any HTTPTransport, timeout: Duration) -> Handler {
        { exchange in
            // A method the sign-in contract does not use cannot reach the transport.
            guard let method = HTTPMethod(rawValue: exchange.request.method) else {
                exchange.respond(.error(501, code: "not_implemented", message: "Unsupported method."))
                return
            }
            let request = HTTPRequest(
                method: method, path: exchange.request.target, headers: HTTPHeaders(exchange.request.headers),
                body: exchange.request.body, timeout: timeout)
            let cancellation = CancellationToken()
            exchange.onAbandon { cancellation.cancel() }
            transport.send(request, cancellation: cancellation) { result in
                switch result {
                case .success(let response):
                    exchange.respond(
                        Response(status: response.status, headers: response.headers.fields, body: response.body))
                case .failure(.connectionLost):
                    exchange.closeWithoutAnswer()
                case .failure(.timeout):
                    exchange.respond(
                        .error(504, code: "gateway_timeout", message: "The backend did not answer in time."))
                case .failure(.unreachable), .failure(.cancelled), .failure(.invalidResponse):
                    exchange.respond(.error(502, code: "bad_gateway", message: "The backend could not answer."))
                }
            }
        }
    }
}
