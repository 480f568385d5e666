public import Foundation
public import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ``HTTPTransport`` for `http://` servers that speaks HTTP/1.1 over a TCP socket of its own:
/// each request is written once, on a connection of its own, and never sent again by the
/// transport, whatever happens to the connection.
///
/// Why not `URLSession` for `http://`: on Linux, FoundationNetworking's libcurl sends a request
/// again by itself when a kept-alive connection closes before any answer — and sends the `POST`
/// without its body, under the same `Idempotency-Key`. A server that acted on the first copy and
/// closed then meets an empty request it must refuse, act on, or wait for until the client times
/// out. Repeating a request is the step's decision (its retry policy, with its full body and the
/// same key), never the HTTP stack's. `URLSession` offers no setting that forbids it, so this
/// transport does the little HTTP a JSON client needs itself. `https://` stays with
/// `URLSessionTransport` (AuthFlowURLSession), which cannot be given TLS without a dependency.
///
/// - One exchange, one connection: the request goes out with `Connection: close` and a
///   `Content-Length`, and the connection is closed when the answer has been read.
/// - A connection that breaks after the request was written and before a whole head came back is
///   ``TransportError/connectionLost`` at once — the server may have acted — so the client's
///   retry repeats the request with the same key instead of waiting for a timeout.
/// - A body cut off after its head is delivered as far as it came, with the head's
///   `Content-Length` (``HTTPTransport``'s contract); a chunked one cut off is a lost connection.
/// - Answers that are not HTTP/1.x, or break ``Limits``, are
///   ``TransportError/invalidResponse(reason:)`` with the reason in plain words.
/// - Cancellation and the request's ``HTTPRequest/timeout`` (on the `scheduler` given) end the
///   exchange at once and close its connection, so the server sees the client leave.
///
/// Each exchange blocks a thread of its own for its length: a sign-in sends a request at a time,
/// and a thread is what a blocking socket costs, without a dependency for an event loop.
public struct PlainHTTPTransport: HTTPTransport {
    /// The most a server's answer may take up in memory; an answer over either limit is refused
    /// as soon as it is known to be, and its connection closed.
    public struct Limits: Sendable, Hashable {
        /// The longest head: status line and header fields, line ends included.
        public var maxHeadBytes: Int
        /// The longest body, after chunked decoding.
        public var maxBodyBytes: Int

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - maxHeadBytes: The longest head; 64 KiB by default, far beyond any real server's.
        ///   - maxBodyBytes: The longest body; 1 MiB by default, far beyond any sign-in answer.
        public init(maxHeadBytes: Int = 64 << 10, maxBodyBytes: Int = 1 << 20) {
            self.maxHeadBytes = max(1, maxHeadBytes)
            self.maxBodyBytes = max(0, maxBodyBytes)
        }
    }

    /// A base URL this transport cannot send to.
    public struct UnsupportedURL: Error, Sendable, Hashable, CustomStringConvertible {
        /// The URL as given.
        public let url: String

        /// A sentence naming the URL and what this transport takes instead.
        public var description: String {
            "'\(url)' is not an http:// URL with a host; PlainHTTPTransport speaks plain HTTP only"
                + " (use URLSessionTransport for https://)."
        }
    }

    /// The server's base URL, e.g. `http://127.0.0.1:8080`; request paths are appended to its path.
    public let baseURL: URL
    /// The limits on each answer.
    public let limits: Limits
    private let host: String
    private let port: UInt16
    private let hostHeader: String
    private let pathPrefix: String
    private let scheduler: any Scheduler

    /// Creates a transport for one server.
    ///
    /// - Parameters:
    ///   - baseURL: An `http://` URL with a host, and a port unless it is 80.
    ///   - limits: The limits on each answer.
    ///   - scheduler: Where each request's ``HTTPRequest/timeout`` runs; Dispatch's by default,
    ///     a `TestScheduler` in tests.
    /// - Throws: ``UnsupportedURL`` for any other scheme, or a URL without a host.
    public init(
        baseURL: URL, limits: Limits = Limits(), scheduler: any Scheduler = DispatchScheduler.shared
    ) throws(UnsupportedURL) {
        guard baseURL.scheme?.lowercased() == "http", var host = baseURL.host, !host.isEmpty,
            let port = UInt16(exactly: baseURL.port ?? 80), port > 0
        else { throw UnsupportedURL(url: baseURL.absoluteString) }
        // An IPv6 literal is bracketed in a URL and in `Host`, bare for the resolver.
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.baseURL = baseURL
        self.limits = limits
        self.host = host
        self.port = port
        let named = host.contains(":") ? "[\(host)]" : host
        hostHeader = baseURL.port == nil ? named : "\(named):\(port)"
        let path = baseURL.path
        pathPrefix = path.hasSuffix("/") ? String(path.dropLast()) : path
        self.scheduler = scheduler
    }

    /// Sends a request once, on a connection of its own.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - cancellation: Stops the exchange and closes its connection at once.
    ///   - completion: Called once, on the exchange's thread: the response (any status, a 3xx
    ///     never followed, a body cut off after its head as far as it came),
    ///     ``TransportError/unreachable(reason:)`` when no connection could be made or the
    ///     request cannot be written as HTTP (nothing was sent), ``TransportError/connectionLost``
    ///     when the connection broke after the request went out and before a readable answer,
    ///     ``TransportError/invalidResponse(reason:)`` for an answer that is not HTTP/1.x or
    ///     breaks ``limits``, ``TransportError/timeout`` after the request's timeout, or
    ///     ``TransportError/cancelled``.
    public func send(
        _ request: HTTPRequest, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        let bytes: [UInt8]
        switch encode(request) {
        case .success(let encoded): bytes = encoded
        case .failure(let refusal): return completion(.failure(refusal))
        }
        guard let stop = ExchangeStop() else {
            return completion(.failure(.unreachable(reason: "no file descriptors left for a connection")))
        }
        let deadline = scheduler.schedule(after: request.timeout) { stop.stop(.timedOut) }
        let registration = cancellation?.onCancel { stop.stop(.cancelled) }
        let (host, port, limits) = (host, port, limits)
        let thread = Thread {
            let result = Self.exchange(bytes, host: host, port: port, limits: limits, stop: stop)
            deadline.cancel()
            registration?.cancel()
            stop.closePipe()
            completion(result)
        }
        thread.name = "PlainHTTPTransport"
        thread.start()
    }

    /// The request's bytes: request line, `Host`, the request's fields, `Content-Length` and
    /// `Connection: close`, then the body. A field the transport sets itself is not copied; a
    /// path or field that would break the framing (a line break, a space in the path) is refused
    /// before anything is sent.
    private func encode(_ request: HTTPRequest) -> Result<[UInt8], TransportError> {
        let target = pathPrefix + request.path
        guard request.path.hasPrefix("/"), target.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return .failure(.unreachable(reason: "the request's path is not a valid HTTP target; nothing was sent"))
        }
        var head = "\(request.method.rawValue) \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        for name in request.headers.fields.keys.sorted() where !Self.framingFields.contains(name) {
            let value = request.headers.fields[name] ?? ""
            guard !name.isEmpty, name.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: ":") }),
                !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
            else {
                return .failure(
                    .unreachable(reason: "the request's header '\(name)' is not valid HTTP; nothing was sent"))
            }
            head += "\(name): \(value)\r\n"
        }
        // Always said for a POST, even when empty: a server must not wait for a body that is not
        // coming, nor read the next request as one.
        if request.method == .post || !request.body.isEmpty { head += "Content-Length: \(request.body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        return .success(Array(head.utf8) + request.body)
    }

    /// Fields that frame the message or the connection: this transport writes them itself.
    private static let framingFields: Set<String> = [
        "host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te",
    ]

    /// Connects, writes the request, reads the answer and closes the connection, on the calling
    /// thread; returns when any of them ends the exchange.
    private static func exchange(
        _ request: [UInt8], host: String, port: UInt16, limits: Limits, stop: ExchangeStop
    ) -> Result<HTTPResponse, TransportError> {
        let fd: Int32
        do throws(TransportError) {
            fd = try ClientSocket.connect(host: host, port: port, stop: stop)
        } catch {
            return .failure(error)
        }
        defer { close(fd) }
        if stop.isStopped { return .failure(stop.error) }
        do throws(TransportError) {
            // A write that breaks off still reads: a server may refuse early and answer why. From
            // here on the server may have acted; whatever ends the exchange without an answer is
            // a lost connection, never a reason to write the request again.
            _ = try ClientSocket.writeAll(fd, request, stop: stop)
            var reader = HTTPResponseReader(maxHeadBytes: limits.maxHeadBytes, maxBodyBytes: limits.maxBodyBytes)
            var buffer = [UInt8](repeating: 0, count: 16 << 10)
            while true {
                let bytes = try ClientSocket.read(fd, into: &buffer, stop: stop)
                guard !bytes.isEmpty else {
                    return reader.endOfStream().map(Result.success) ?? .failure(.connectionLost)
                }
                do throws(HTTPResponseReader.Unreadable) {
                    if let response = try reader.consume(bytes) { return .success(response) }
                } catch {
                    return .failure(.invalidResponse(reason: error.reason))
                }
            }
        } catch {
            return .failure(error)
        }
    }
}
