package import AuthFlow
import AuthSimulator
package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests that need a real socket: `URLSessionTransport`
/// against the simulator (AuthFlowTests), and the built opctl signing in over HTTP (opctlTests).
///
/// It answers through an ``HTTPTransport`` (a ``SimulatedBackend`` by default) or a handler,
/// records every request, and can hold requests unanswered (``hold(pathEndingWith:)``), noticing
/// when the client closes the connection meanwhile (a cancelled request, Ctrl-C, kill -9). One
/// request per connection (`Connection: close`); a blocking thread per connection is plenty for a
/// test.
///
/// ```swift
/// let server = try LoopbackHTTPServer()
/// defer { server.stop() }
/// server.hold(pathEndingWith: "code/send")
/// // … start a client against server.baseURL …
/// #expect(server.wait { $0.heldArrivals == 1 })
/// ```
package final class LoopbackHTTPServer: @unchecked Sendable {
    /// What the server has seen; the conditions of ``wait(timeout:until:)`` read it.
    package struct State: Sendable {
        /// Every request read, in arrival order.
        package fileprivate(set) var requests: [HTTPRequest] = []
        /// How many requests arrived while their path was held.
        package fileprivate(set) var heldArrivals = 0
        /// How many held requests' clients closed the connection before a release.
        package fileprivate(set) var closedWhileHeld = 0
        fileprivate var heldSuffix: String?
        /// Counts ``release()`` calls; a held request waits until it moves.
        fileprivate var releases = 0
        fileprivate var stopped = false
        /// The connections not yet closed, and whether each waits for its answer (no thread
        /// reads or watches it then).
        fileprivate var open: [Int32: Bool] = [:]
    }

    /// The port the server listens on.
    package let port: UInt16
    private let listener: Int32
    private let respond: @Sendable (HTTPRequest, @escaping @Sendable ([UInt8]?) -> Void) -> Void
    /// Guards `state` and wakes ``wait(timeout:until:)`` on every change.
    private let changed = NSCondition()
    private var state = State()

    /// Serves `transport`'s answers; a request it fails (a lost answer) gets its connection
    /// closed without one, and one it never answers (a hang) stays open until the client gives up
    /// or ``stop()``.
    ///
    /// - Parameter transport: Answers the requests; a fresh ``SimulatedBackend`` by default.
    /// - Throws: ``SocketFailure`` when nothing can listen on 127.0.0.1.
    package convenience init(serving transport: any HTTPTransport = SimulatedBackend()) throws(SocketFailure) {
        try self.init { request, reply in
            transport.send(request) { result in reply((try? result.get()).map(Self.bytes(of:))) }
        }
    }

    /// Answers every request with what `handler` returns, e.g. one fixed error or a redirect.
    ///
    /// - Parameter handler: Makes the response to a request.
    /// - Throws: ``SocketFailure`` when nothing can listen on 127.0.0.1.
    package convenience init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(SocketFailure) {
        try self.init { request, reply in reply(Self.bytes(of: handler(request))) }
    }

    /// Answers every request with the bytes `handler` returns, written as they are before the
    /// connection closes: a response no well-behaved server sends, such as a head promising a
    /// longer body than follows.
    ///
    /// - Parameter handler: Makes the raw answer to a request, head and body.
    /// - Throws: ``SocketFailure`` when nothing can listen on 127.0.0.1.
    package convenience init(rawHandler handler: @escaping @Sendable (HTTPRequest) -> [UInt8]) throws(SocketFailure) {
        try self.init { request, reply in reply(handler(request)) }
    }

    private init(
        respond: @escaping @Sendable (HTTPRequest, @escaping @Sendable ([UInt8]?) -> Void) -> Void
    ) throws(SocketFailure) {
        self.respond = respond
        let fd = try LoopbackSocket.make()
        do throws(SocketFailure) {
            try LoopbackSocket.bind(fd)
            guard listen(fd, 16) == 0 else { throw SocketFailure(step: "listen", code: errno) }
            port = try LoopbackSocket.boundPort(fd)
        } catch {
            close(fd)
            throw error
        }
        listener = fd
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// `http://127.0.0.1:<port>`: a transport's base URL, or opctl's `--backend`.
    package var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Every request read so far, in order.
    package var requests: [HTTPRequest] { read { $0.requests } }

    /// How many requests reached a path ending with `suffix`.
    package func count(pathEndingWith suffix: String) -> Int {
        read { $0.requests.count { $0.path.hasSuffix(suffix) } }
    }

    /// The `Idempotency-Key` headers sent to paths ending with `suffix`, in arrival order.
    package func idempotencyKeys(pathEndingWith suffix: String) -> [String] {
        read { $0.requests.filter { $0.path.hasSuffix(suffix) }.compactMap { $0.headers["Idempotency-Key"] } }
    }

    /// Holds every request whose path ends with `suffix` (every request, by default) unanswered
    /// until ``release()`` or ``stop()``, watching for the client to close the connection.
    package func hold(pathEndingWith suffix: String = "") {
        update { $0.heldSuffix = suffix }
    }

    /// Lets the held requests be answered (those whose client is still there) and holds no more.
    package func release() {
        update { state in
            state.heldSuffix = nil
            state.releases += 1
        }
    }

    /// Waits until `condition` holds on the server's state, or `timeout` passes.
    ///
    /// - Returns: Whether the condition holds.
    @discardableResult
    package func wait(timeout: Duration = .seconds(10), until condition: (State) -> Bool) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18)
        changed.lock()
        defer { changed.unlock() }
        while !condition(state) {
            if !changed.wait(until: deadline) { return condition(state) }
        }
        return true
    }

    /// Closes the listener and ends every connection still open: held ones, ones being read, and
    /// those a hang left unanswered. Calling it again does nothing.
    package func stop() {
        let unanswered: [Int32]? = update { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            // Under the lock: a descriptor still listed is not closed yet, so its number is ours.
            // Shutting it down wakes the thread reading or watching it, which closes it.
            for fd in state.open.keys { shutdown(fd, Int32(SHUT_RDWR)) }
            return state.open.filter(\.value).map(\.key)
        }
        guard let unanswered else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in unanswered { closeConnection(fd) }
    }

    // MARK: - Connections

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            let accepted = update { state in
                guard !state.stopped else { return false }
                state.open[connection] = false
                return true
            }
            guard accepted else {
                close(connection)
                return
            }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ fd: Int32) {
        guard let request = Self.readRequest(fd) else {
            closeConnection(fd)
            return
        }
        let heldAt: Int? = update { state in
            state.requests.append(request)
            guard let suffix = state.heldSuffix, request.path.hasSuffix(suffix) else { return nil }
            state.heldArrivals += 1
            return state.releases
        }
        if let heldAt, !waitForRelease(fd, after: heldAt) {
            closeConnection(fd)
            return
        }
        let answering = update { state in
            guard !state.stopped, state.open[fd] != nil else { return false }
            state.open[fd] = true
            return true
        }
        guard answering else {
            closeConnection(fd)
            return
        }
        respond(request) { [self] response in answer(fd, with: response) }
    }

    /// Writes the answer, if any, and closes the connection — unless ``stop()`` closed it first.
    private func answer(_ fd: Int32, with response: [UInt8]?) {
        // Under the lock: once the descriptor is closed, its number may belong to another socket.
        let mine = update { state in
            guard state.open.removeValue(forKey: fd) != nil else { return false }
            if let response { _ = LoopbackSocket.sendAll(fd, response) }
            return true
        }
        if mine { close(fd) }
    }

    /// Waits for a ``release()`` after `releases`; `false` when the client closed the connection
    /// first (counted) or the server stopped.
    private func waitForRelease(_ fd: Int32, after releases: Int) -> Bool {
        while true {
            let (released, stopped) = read { ($0.releases > releases, $0.stopped) }
            if stopped { return false }
            if released { return true }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 10) > 0 {
                var byte: UInt8 = 0
                // End of stream (0) or a broken connection (-1): the client is gone, unless
                // stop() shut the connection down.
                if recv(fd, &byte, 1, Int32(MSG_PEEK)) <= 0 {
                    return update { state in
                        if !state.stopped { state.closedWhileHeld += 1 }
                        return false
                    }
                }
            }
        }
    }

    private func closeConnection(_ fd: Int32) {
        // Only the first closer closes, so a descriptor number reused by a later accept is safe.
        guard update({ $0.open.removeValue(forKey: fd) }) != nil else { return }
        close(fd)
    }

    private func read<Value>(_ body: (State) -> Value) -> Value {
        changed.lock()
        defer { changed.unlock() }
        return body(state)
    }

    @discardableResult
    private func update<Value>(_ body: (inout State) -> Value) -> Value {
        changed.lock()
        defer {
            changed.broadcast()
            changed.unlock()
        }
        return body(&state)
    }

    // MARK: - HTTP

    private static func readRequest(_ fd: Int32) -> HTTPRequest? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
            headerEnd = buffer.firstRange(of: separator)?.upperBound
            if buffer.count > 65_536 { return nil }
        }
        guard let headerEnd else { return nil }
        let head = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3, let method = HTTPMethod(rawValue: String(requestLine[0])) else { return nil }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["Content-Length"] ?? "0") ?? 0
        var body = Array(buffer[headerEnd...])
        while body.count < length {
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            body += chunk[0..<count]
        }
        return HTTPRequest(
            method: method, path: String(requestLine[1]), headers: headers, body: Data(body.prefix(length)))
    }

    private static func bytes(of response: HTTPResponse) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        for (name, value) in response.headers.fields where name != "content-length" && name != "connection" {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + Array(response.body)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 307: "Temporary Redirect"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 409: "Conflict"
        case 410: "Gone"
        case 423: "Locked"
        case 429: "Too Many Requests"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
