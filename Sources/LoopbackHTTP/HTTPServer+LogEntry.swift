extension HTTPServer {
    /// One request as the server's log sees it: what was asked, how it ended, how long it took.
    ///
    /// It carries no body, no header value and no query string by construction, so a log line
    /// can never show a bearer token, an SMS code or an idempotency key, whatever the client
    /// sent: the redaction is the type's shape, not a rule each caller must remember.
    public struct LogEntry: Sendable, Hashable, CustomStringConvertible {
        /// How the exchange ended.
        public enum Outcome: Sendable, Hashable {
            /// A response with this status was sent (or its sending began).
            case answered(status: Int)
            /// The client closed the connection before the answer was ready.
            case clientLeft
            /// The handler gave no answer to send (``HTTPServer/Exchange/closeWithoutAnswer()``), so
            /// the connection was closed without one, as when a real answer is lost on the way.
            case answerLost
        }

        /// The method, clipped, or `-` when the request line could not be read.
        public let method: String
        /// The path, its query replaced by `?…`, clipped; `-` when unknown.
        public let path: String
        /// How it ended.
        public let outcome: Outcome
        /// From the request's first byte to the outcome.
        public let duration: Duration

        /// Creates an entry from the request target as sent, of which only the path is kept; the
        /// server makes them, tests and other front ends may too.
        public init(method: String, target: String, outcome: Outcome, duration: Duration) {
            self.method = method.count <= 20 ? method : method.prefix(20) + "…"
            self.path = Self.loggable(target)
            self.outcome = outcome
            self.duration = duration
        }

        /// The status sent, if any.
        public var status: Int? {
            if case .answered(let status) = outcome { status } else { nil }
        }

        /// `POST /v1/auth/phone 200 1.4 ms`, or `… - 12.0 ms (the client left)` without a status.
        public var description: String {
            let milliseconds =
                Double(duration.components.seconds) * 1_000
                + Double(duration.components.attoseconds) / 1e15
            let time = (milliseconds * 10).rounded() / 10
            switch outcome {
            case .answered(let status): return "\(method) \(path) \(status) \(time) ms"
            case .clientLeft: return "\(method) \(path) - \(time) ms (the client left before the answer)"
            case .answerLost: return "\(method) \(path) - \(time) ms (no answer: the backend lost it)"
            }
        }

        /// The path without its query (which could carry anything), visible ASCII only, at most
        /// 120 characters, so a hostile target cannot forge log lines or flood them.
        static func loggable(_ target: String) -> String {
            guard target != "-" else { return target }
            let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            var path = String(parts.first ?? "")
            path = String(
                String.UnicodeScalarView(path.unicodeScalars.map { (0x21...0x7E).contains($0.value) ? $0 : "?" }))
            if path.count > 120 { path = path.prefix(120) + "…" }
            return parts.count > 1 ? path + "?…" : path
        }
    }
}
