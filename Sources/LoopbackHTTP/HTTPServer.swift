/// A small HTTP/1.1 server for development and tests, answering every request through a
/// ``Handler``: serving the simulated sign-in backend on a real port (`opctl serve`) lets curl,
/// another process or an app under development sign in against the contract of Docs/HTTP-API.md
/// without a real backend, and the tests send real HTTP over 127.0.0.1 through the same server.
/// It knows nothing of sign-in; `AuthSimulator` adapts a transport to it.
///
/// It listens as soon as it is created and until ``stop()``. One request per connection: every
/// answer says `Connection: close`, which every client handles and keeps the server simple.
///
/// Robust against any client, not only well-behaved ones:
/// - One thread multiplexes every connection with `poll`, so slow or silent clients cost a
///   descriptor each, never a thread; at most ``Limits/maxConnections`` are open at once. When
///   all are taken, a new connection closes the oldest idle one (connected and silent, or
///   answered and lingering), so clients that connect and say nothing cannot keep a request
///   waiting; only when none is idle do newcomers wait in the kernel's backlog.
/// - A request must arrive completely within ``Limits/readTimeout`` of its connection opening, or
///   the connection is closed (with `408` if part of a request came): a client sending a byte a
///   second cannot hold it open.
/// - Malformed request line `400`, head over ``Limits/maxHeaderBytes`` `431`, body over
///   ``Limits/maxBodyBytes`` `413`, chunked body `411`, another transfer coding `501`, a method
///   outside ``Limits/methods`` `405`, HTTP/2 and beyond `505`; all in the contract's error
///   envelope, or as the server's `refusal` words them. Nothing a client sends can crash it.
/// - A handler that does not answer within ``Limits/answerTimeout`` is told to stop
///   (``Exchange/onAbandon(_:)``) and the client gets `504`; a client that leaves while its
///   answer is pending abandons the request the same way.
///
/// ```swift
/// let server = try HTTPServer(port: 0) { exchange in
///     exchange.respond(HTTPServer.Response(status: 200, body: Data("hello".utf8)))
/// }
/// print(server.baseURL)      // http://127.0.0.1:41234
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
    /// How much a client may ask of the server, and how long it may take.
    public struct Limits: Sendable, Hashable {
        /// How long a client has from connecting to sending its whole request, and to reading the
        /// answer; after that its connection is closed.
        public var readTimeout: Duration
        /// How long the handler may take to answer before the client gets `504`.
        public var answerTimeout: Duration
        /// The largest request head (request line and headers) accepted; larger is `431`.
        public var maxHeaderBytes: Int
        /// The largest body accepted; larger is `413`.
        public var maxBodyBytes: Int
        /// How many connections may be open at once. Past it, each new connection closes the
        /// oldest idle one (one that has sent nothing, or whose answer is sent); when none is
        /// idle, new ones wait to be accepted.
        public var maxConnections: Int
        /// The methods the handler is given (uppercase); another is refused with `405` and an
        /// `Allow` header naming these.
        public var methods: Set<String>

        /// Limits fit for a development server by default: 10 s to send a request, 60 s for an
        /// answer, 16 KiB of head, 64 KiB of body, 512 connections, GET, HEAD and POST.
        public init(
            readTimeout: Duration = .seconds(10), answerTimeout: Duration = .seconds(60),
            maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 64 * 1024, maxConnections: Int = 512,
            methods: Set<String> = ["GET", "HEAD", "POST"]
        ) {
            self.readTimeout = readTimeout
            self.answerTimeout = answerTimeout
            self.maxHeaderBytes = maxHeaderBytes
            self.maxBodyBytes = maxBodyBytes
            self.maxConnections = maxConnections
            self.methods = methods
        }
    }

    /// The address listened on, in canonical form, e.g. `127.0.0.1` or `::1`.
    public let host: String
    /// The port listened on: the one asked for, or the one the system picked for port 0.
    public let port: UInt16
    /// Whether only this machine can reach the server (127.0.0.0/8 or `::1`); `false` means
    /// other machines on the network can send it requests.
    public let isLoopback: Bool
    private let loop: HTTPServerLoop

    /// Starts listening and serving.
    ///
    /// - Parameters:
    ///   - host: The IP address to listen on: `127.0.0.1` (this machine only) unless the caller
    ///     means to serve the network; `localhost` is 127.0.0.1. Names are not resolved.
    ///   - port: The port; 0 lets the system pick a free one (read it from ``port``).
    ///   - limits: Timeouts and sizes.
    ///   - log: Called once per request, on the server's thread, after its outcome is known; keep
    ///     it quick. Entries never hold bodies, header values or queries.
    ///   - refusal: How the server words the answers it gives itself (a malformed or oversized
    ///     request, a timeout), from the status, a machine-readable code and a sentence; `nil` for
    ///     the JSON envelope of Docs/HTTP-API.md (``Response/error(_:code:message:)``).
    ///   - handler: Answers every request that passes the server's checks; called on the
    ///     server's thread, and may answer from any thread.
    /// - Throws: ``HTTPServerError`` when the address cannot be listened on (in use, not an
    ///   address of this machine, not permitted).
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, limits: Limits = Limits(),
        log: (@Sendable (LogEntry) -> Void)? = nil, refusal: Refusal? = nil, answering handler: @escaping Handler
    ) throws(HTTPServerError) {
        guard let address = ServerSocket.Address(host: host, port: port) else { throw .invalidHost(host) }
        let (listener, bound) = try ServerSocket.listen(on: address, backlog: 511)
        self.host = bound.host
        self.port = bound.port
        self.isLoopback = bound.isLoopback
        loop = try HTTPServerLoop(
            listener: listener, handler: handler, limits: limits, log: log, refusal: refusal ?? Response.error)
        loop.start()
    }

    deinit {
        loop.stop()
    }

    /// Whether an address is one only this machine can reach, so a front end can warn before
    /// serving the network.
    ///
    /// - Parameter host: An IP literal or `localhost`, as ``init(host:port:limits:log:refusal:answering:)`` takes.
    /// - Returns: `nil` when `host` is not an address the server would accept.
    public static func isLoopback(host: String) -> Bool? {
        ServerSocket.Address(host: host, port: 0)?.isLoopback
    }

    /// The reason phrase of a status, e.g. `Not Found` for 404, as the server's status lines
    /// say it; for a front end that titles its own error pages alike.
    public static func reasonPhrase(_ status: Int) -> String {
        ResponseEncoding.reason(status)
    }

    /// `http://127.0.0.1:8080` or `http://[::1]:8080`: where clients reach the server.
    public var baseURL: String {
        "http://" + HTTPServerError.endpoint(host, port)
    }

    /// Stops serving: closes the listener, so the port is free when this returns, and every open
    /// connection, abandoning requests still waiting on the handler. Returns within
    /// milliseconds; calling it again does nothing.
    public func stop() {
        loop.stop()
    }
}
