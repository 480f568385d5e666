public import Foundation

extension HTTPServer {
    /// Answers every request that passes the server's checks. Called on the server's thread, so
    /// it must return at once; it answers through the exchange, from any thread, whenever it is
    /// ready.
    public typealias Handler = @Sendable (Exchange) -> Void

    /// Words an answer the server gives itself, from its status, a machine-readable code (e.g.
    /// `request_timeout`) and a sentence for people; the server adds `Allow` to a `405`.
    public typealias Refusal = @Sendable (_ status: Int, _ code: String, _ message: String) -> Response

    /// A request as the server hands it to its ``Handler``: already checked against RFC 9112, with
    /// a complete body.
    public struct Request: Sendable, Hashable {
        /// `GET` or `POST`. A `HEAD` request arrives as `GET`: the server answers it with the
        /// `GET` answer's head and drops the body.
        public let method: String
        /// The origin-form target: path and query, e.g. `/v1/auth/phone`.
        public let target: String
        /// The header fields, keyed by lowercased name; repeated fields joined with `, `.
        public let headers: [String: String]
        /// The body; empty for none.
        public let body: Data

        /// Creates a request; the server makes them, tests of a handler may too.
        public init(method: String, target: String, headers: [String: String] = [:], body: Data = Data()) {
            self.method = method
            self.target = target
            self.headers = headers
            self.body = body
        }
    }

    /// A response for the server to send. It adds the framing itself (`Content-Length`, `Date`,
    /// `Connection: close`), so a handler's values for those are ignored.
    public struct Response: Sendable, Hashable {
        /// The status code; one outside 200...599 is sent as `502`, since a client must not guess
        /// at an answer its backend invented.
        public var status: Int
        /// The header fields, names in any case; sent in name order, spelled `Content-Type`.
        public var headers: [String: String]
        /// The body; empty for none.
        public var body: Data

        /// Creates a response.
        public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// An error answer in the envelope of Docs/HTTP-API.md (`{"error":{"code":…,"message":…}}`),
        /// the one the server uses for the requests it refuses itself, so a handler's own errors
        /// (a backend that timed out, say) read the same to a client.
        ///
        /// - Parameters:
        ///   - status: The status code.
        ///   - code: The machine-readable code, e.g. `gateway_timeout`.
        ///   - message: A sentence for people.
        public static func error(_ status: Int, code: String, message: String) -> Response {
            ResponseEncoding.error(status, code: code, message: message)
        }
    }

    /// One request waiting for its answer: the handler reads ``request`` and answers once, and
    /// learns through ``onAbandon(_:)`` when nobody waits any more.
    ///
    /// Only the first answer counts; later ones, and answers after the exchange was abandoned,
    /// are dropped.
    public final class Exchange: Sendable {
        /// What the client asked.
        public let request: Request
        private let deliver: @Sendable (Reply) -> Void
        private let state = Locked(State())

        /// What the server does with the connection once the handler has decided.
        enum Reply: Sendable {
            case response(Response)
            case raw([UInt8])
            case closeWithoutAnswer
        }

        private struct State {
            var settled = false
            var abandoned = false
            var abandonActions: [@Sendable () -> Void] = []
        }

        init(request: Request, deliver: @escaping @Sendable (Reply) -> Void) {
            self.request = request
            self.deliver = deliver
        }

        /// Sends `response` and closes the connection.
        public func respond(_ response: Response) {
            settle(.response(response))
        }

        /// Closes the connection without any answer, as when a real answer is lost on the way:
        /// the client cannot tell whether the request was acted on. For simulated faults.
        public func closeWithoutAnswer() {
            settle(.closeWithoutAnswer)
        }

        /// Writes `bytes` exactly as they are, then closes: an answer no well-behaved server
        /// sends (a head promising more body than follows), for tests of a client. Not public:
        /// only this package's tests send such answers.
        package func respond(raw bytes: [UInt8]) {
            settle(.raw(bytes))
        }

        /// Runs `action` once the request is abandoned — the client closed its connection, the
        /// answer took longer than ``Limits/answerTimeout``, or the server stopped — so a handler
        /// can stop work nobody waits for. Runs at once when that has already happened, and on the
        /// server's thread otherwise (keep it quick).
        public func onAbandon(_ action: @escaping @Sendable () -> Void) {
            let now = state.withLock { state in
                guard !state.abandoned else { return true }
                state.abandonActions.append(action)
                return false
            }
            if now { action() }
        }

        private func settle(_ reply: Reply) {
            let first = state.withLock { state in
                defer { state.settled = true }
                return !state.settled && !state.abandoned
            }
            if first { deliver(reply) }
        }

        /// Called by the server's loop; the actions run outside the lock, so one that answers
        /// (a transport completing with "cancelled") cannot deadlock.
        func abandon() {
            let actions = state.withLock { state in
                guard !state.abandoned else { return [@Sendable () -> Void]() }
                state.abandoned = true
                defer { state.abandonActions = [] }
                return state.abandonActions
            }
            for action in actions { action() }
        }
    }
}
