package import AuthFlow
import AuthSimulator
package import Foundation
package import LoopbackHTTP
import OperationsTesting

/// The package's one ``HTTPServer`` on 127.0.0.1, with what tests need besides: every request
/// recorded, and requests held unanswered (``hold(pathEndingWith:)``) while noticing when the
/// client closes the connection meanwhile (a cancelled request, Ctrl-C, kill -9). For
/// `URLSessionTransport` against the simulator (AuthFlowTests) and the built opctl signing in over
/// HTTP (opctlTests).
///
/// ```swift
/// let server = try RecordingServer()
/// defer { server.stop() }
/// server.hold(pathEndingWith: "code/send")
/// // … start a client against server.baseURL …
/// #expect(server.wait { $0.heldArrivals == 1 })
/// ```
package final class RecordingServer: Sendable {
    /// What the server has seen; the conditions of ``wait(timeout:until:)`` read it.
    package struct State: Sendable {
        /// Every request read, in arrival order.
        package fileprivate(set) var requests: [HTTPRequest] = []
        /// How many requests arrived while their path was held.
        package fileprivate(set) var heldArrivals = 0
        /// How many held requests' clients closed the connection before a release.
        package fileprivate(set) var closedWhileHeld = 0
        fileprivate var heldSuffix: String?
        /// The held requests, answered on ``release()``.
        fileprivate var held: [(exchange: HTTPServer.Exchange, answer: @Sendable () -> Void)] = []
        fileprivate var stopped = false
    }

    /// How a request is answered once it is not (or no longer) held.
    private typealias Answering = @Sendable (HTTPServer.Exchange, HTTPRequest) -> Void

    private let server: HTTPServer
    /// Guards `state` and wakes ``wait(timeout:until:)`` on every change.
    private let changed = WatchedState(State())

    /// The port the server listens on.
    package let port: UInt16

    /// Serves `transport`'s answers as `opctl serve` does; a request it fails with a lost answer
    /// gets its connection closed without one, and one it never answers (a hang) stays open until
    /// the client gives up or ``stop()``.
    ///
    /// - Parameter transport: Answers the requests; a fresh ``SimulatedBackend`` by default.
    /// - Throws: ``HTTPServerError`` when nothing can listen on 127.0.0.1.
    package convenience init(serving transport: any HTTPTransport = SimulatedBackend()) throws(HTTPServerError) {
        let answer = HTTPServer.handler(for: transport, timeout: Self.limits.answerTimeout)
        try self.init { exchange, _ in answer(exchange) }
    }

    /// Answers every request with what `handler` returns, e.g. one fixed error or a redirect.
    ///
    /// - Parameter handler: Makes the response to a request.
    /// - Throws: ``HTTPServerError`` when nothing can listen on 127.0.0.1.
    package convenience init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(HTTPServerError) {
        try self.init { exchange, request in
            let response = handler(request)
            exchange.respond(
                HTTPServer.Response(status: response.status, headers: response.headers.fields, body: response.body))
        }
    }

    /// Answers every request with the bytes `handler` returns, written as they are before the
    /// connection closes: a response no well-behaved server sends, such as a head promising a
    /// longer body than follows.
    ///
    /// - Parameter handler: Makes the raw answer to a request, head and body.
    /// - Throws: ``HTTPServerError`` when nothing can listen on 127.0.0.1.
    package convenience init(rawHandler handler: @escaping @Sendable (HTTPRequest) -> [UInt8]) throws(HTTPServerError) {
        try self.init { exchange, request in exchange.respond(raw: handler(request)) }
    }

    /// A held request waits for ``release()`` as long as a test needs, never for the server's
    /// default answer timeout of a minute.
    private static let limits = HTTPServer.Limits(answerTimeout: .seconds(600))

    private init(answering: @escaping Answering) throws(HTTPServerError) {
        let changed = changed
        server = try HTTPServer(limits: Self.limits) { exchange in
            // Every method the server accepts (GET, POST) is one of HTTPMethod's.
            let request = HTTPRequest(
                method: HTTPMethod(rawValue: exchange.request.method) ?? .get, path: exchange.request.target,
                headers: HTTPHeaders(exchange.request.headers), body: exchange.request.body)
            let held = changed.update { state in
                state.requests.append(request)
                guard let suffix = state.heldSuffix, request.path.hasSuffix(suffix) else { return false }
                state.heldArrivals += 1
                state.held.append((exchange, { answering(exchange, request) }))
                return true
            }
            guard held else {
                answering(exchange, request)
                return
            }
            // The client closing the connection abandons the exchange; stop() does too, but is no
            // client leaving.
            exchange.onAbandon {
                changed.update { state in
                    guard let index = state.held.firstIndex(where: { $0.exchange === exchange }) else { return }
                    state.held.remove(at: index)
                    if !state.stopped { state.closedWhileHeld += 1 }
                }
            }
        }
        port = server.port
    }

    /// `http://127.0.0.1:<port>`: a transport's base URL, or opctl's `--backend`.
    package var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Every request read so far, in order.
    package var requests: [HTTPRequest] { changed.read { $0.requests } }

    /// How many requests reached a path ending with `suffix`.
    package func count(pathEndingWith suffix: String) -> Int {
        changed.read { $0.requests.count { $0.path.hasSuffix(suffix) } }
    }

    /// The `Idempotency-Key` headers sent to paths ending with `suffix`, in arrival order.
    package func idempotencyKeys(pathEndingWith suffix: String) -> [String] {
        changed.read { $0.requests.filter { $0.path.hasSuffix(suffix) }.compactMap { $0.headers["Idempotency-Key"] } }
    }

    /// Holds every request whose path ends with `suffix` (every request, by default) unanswered
    /// until ``release()`` or ``stop()``, watching for the client to close the connection.
    package func hold(pathEndingWith suffix: String = "") {
        changed.update { $0.heldSuffix = suffix }
    }

    /// Lets the held requests be answered (those whose client is still there) and holds no more.
    package func release() {
        let held = changed.update { state in
            state.heldSuffix = nil
            defer { state.held = [] }
            return state.held
        }
        for request in held { request.answer() }
    }

    /// Waits until `condition` holds on the server's state, or `timeout` passes.
    ///
    /// - Returns: Whether the condition holds.
    @discardableResult
    package func wait(timeout: Duration = TestTimeout.standard, until condition: (State) -> Bool) -> Bool {
        changed.wait(timeout: timeout, until: condition)
    }

    /// Stops the server: the listener is closed and every connection still open ends, held ones,
    /// ones being read, and those a hang left unanswered. Calling it again does nothing.
    package func stop() {
        changed.update { $0.stopped = true }
        server.stop()
    }
}
