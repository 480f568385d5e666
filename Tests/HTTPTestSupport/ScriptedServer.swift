import Dispatch
package import Foundation
import OperationsTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bare HTTP/1.1 server on 127.0.0.1 whose every answer is scripted byte for byte, for tests of
/// HTTP clients: unlike ``RecordingServer`` (the package's well-behaved server) it can keep a
/// connection open for the next request, act and then close without a word, stall forever, or
/// send a head and half a body and go quiet.
///
/// Each accepted connection is served on a thread of its own; ``stop()`` wakes them all through
/// one pipe, so no thread sleeps or polls on a timer.
///
/// ```swift
/// let server = try ScriptedServer { request, index in
///     index == 0 ? .closeWithoutAnswer : .answer(status: 200, body: "{}")
/// }
/// defer { server.stop() }
/// ```
package final class ScriptedServer: Sendable {
    /// A request as it arrived: head fields by lowercased name and the body its `Content-Length`
    /// announced, with the number of the connection it came on (from 0).
    package struct Request: Sendable {
        package let method: String
        package let target: String
        package let headers: [String: String]
        package let body: [UInt8]
        package let connection: Int
    }

    /// What the server writes for a request, and what it does with the connection after.
    package struct Reply: Sendable {
        /// What happens to a connection after its reply was written.
        package enum Then: Sendable {
            /// Read the next request on the same connection (HTTP/1.1 keep-alive).
            case readNext
            /// Close the connection.
            case close
            /// Keep the connection open and write nothing more until the client closes it or the
            /// server stops: a server that stalls.
            case hold
        }

        package var bytes: [UInt8]
        package var then: Then

        package init(bytes: [UInt8], then: Then) {
            self.bytes = bytes
            self.then = then
        }

        /// A well-formed answer with a `Content-Length`; `keepAlive` leaves the connection open
        /// for another request, as most servers do.
        package static func answer(
            status: Int, headers: [(String, String)] = [], body: String = "", keepAlive: Bool = false
        ) -> Reply {
            var head = "HTTP/1.1 \(status) \(status < 400 ? "OK" : "Error")\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            head += "Content-Length: \(body.utf8.count)\r\n"
            if !keepAlive { head += "Connection: close\r\n" }
            head += "\r\n"
            return Reply(bytes: Array((head + body).utf8), then: keepAlive ? .readNext : .close)
        }

        /// The server read the request, may have acted on it, and closes without answering.
        package static let closeWithoutAnswer = Reply(bytes: [], then: .close)

        /// The server read the request and never answers.
        package static let stall = Reply(bytes: [], then: .hold)

        /// `bytes` as they are, then the connection closes.
        package static func raw(_ bytes: [UInt8]) -> Reply { Reply(bytes: bytes, then: .close) }

        /// `text` as it is, then the connection closes.
        package static func raw(_ text: String) -> Reply { raw(Array(text.utf8)) }
    }

    /// What the server has seen.
    package struct State: Sendable {
        /// Every complete request read, in arrival order.
        package fileprivate(set) var requests: [Request] = []
        /// Connections accepted.
        package fileprivate(set) var connections = 0
        /// Connections the client closed while the server held them (``Reply/Then/hold``) or
        /// before it had sent a whole request.
        package fileprivate(set) var closedByClient = 0
    }

    /// The port the server listens on.
    package let port: UInt16
    private let listener: Int32
    /// A pipe nobody reads: written once by ``stop()``, it stays readable and wakes every poll.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let reply: @Sendable (Request, Int) -> Reply
    private let state = WatchedState(State())
    private let threads = DispatchGroup()

    /// Starts listening on a free port of 127.0.0.1.
    ///
    /// - Parameter reply: The reply to the request, given with its index among all requests
    ///   (from 0); called on the connection's thread.
    /// - Throws: ``SocketFailure`` when nothing can listen on 127.0.0.1.
    package init(reply: @escaping @Sendable (Request, _ index: Int) -> Reply) throws(SocketFailure) {
        let fd = try LoopbackSocket.make()
        var ends: [Int32] = [0, 0]
        do throws(SocketFailure) {
            try LoopbackSocket.bind(fd)
            guard listen(fd, 16) == 0 else { throw SocketFailure(step: "listen", code: errno) }
            guard pipe(&ends) == 0 else { throw SocketFailure(step: "pipe", code: errno) }
            port = try LoopbackSocket.boundPort(fd)
        } catch {
            close(fd)
            throw error
        }
        listener = fd
        wakeRead = ends[0]
        wakeWrite = ends[1]
        self.reply = reply
        threads.enter()
        Thread { [self] in
            acceptLoop()
            threads.leave()
        }.start()
    }

    /// `http://127.0.0.1:<port>`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// Every complete request read so far.
    package var requests: [Request] { state.read { $0.requests } }

    /// Waits until `condition` holds on the server's state or `timeout` passes: a guard against
    /// a hang, never a pause.
    ///
    /// - Returns: Whether the condition holds.
    @discardableResult
    package func wait(timeout: Duration = TestTimeout.standard, until condition: (State) -> Bool) -> Bool {
        state.wait(timeout: timeout, until: condition)
    }

    /// Stops accepting, ends every connection and waits for their threads. Call it once.
    package func stop() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        threads.wait()
        close(listener)
        close(wakeRead)
        close(wakeWrite)
    }

    // MARK: - The threads

    private func acceptLoop() {
        while waitReadable(listener) {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            let number = state.update { state in
                defer { state.connections += 1 }
                return state.connections
            }
            threads.enter()
            Thread { [self] in
                serve(fd, connection: number)
                close(fd)
                threads.leave()
            }.start()
        }
    }

    /// Reads requests off one connection and writes their replies until the script closes it,
    /// the client leaves or the server stops.
    private func serve(_ fd: Int32, connection: Int) {
        var buffer: [UInt8] = []
        while true {
            guard let request = readRequest(fd, connection: connection, buffer: &buffer) else { return }
            let index = state.update { state in
                state.requests.append(request)
                return state.requests.count - 1
            }
            let answer = reply(request, index)
            if !answer.bytes.isEmpty, !LoopbackSocket.sendAll(fd, answer.bytes) { return }
            switch answer.then {
            case .readNext: continue
            case .close: return
            case .hold:
                // Wait for the client to close (or the server to stop); a client that sends more
                // is read and ignored.
                var scratch = [UInt8](repeating: 0, count: 1024)
                while waitReadable(fd) {
                    let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if count > 0 || (count < 0 && errno == EINTR) { continue }
                    state.update { $0.closedByClient += 1 }
                    return
                }
                return
            }
        }
    }

    /// One whole request (head, then the body its `Content-Length` announces), or `nil` when the
    /// client closed first or the server stops.
    private func readRequest(_ fd: Int32, connection: Int, buffer: inout [UInt8]) -> Request? {
        let terminator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var contentLength = 0
        var head: (method: String, target: String, headers: [String: String])?
        while true {
            if headEnd == nil, let range = buffer.firstRange(of: terminator) {
                headEnd = range.upperBound
                head = Self.parseHead(buffer[..<range.lowerBound])
                contentLength = head?.headers["content-length"].flatMap { Int($0) } ?? 0
            }
            if let end = headEnd, buffer.count >= end + contentLength, let head {
                let body = Array(buffer[end..<(end + contentLength)])
                buffer.removeFirst(end + contentLength)
                return Request(
                    method: head.method, target: head.target, headers: head.headers, body: body, connection: connection)
            }
            guard waitReadable(fd) else { return nil }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if !buffer.isEmpty { state.update { $0.closedByClient += 1 } }
                return nil
            }
            buffer += chunk[0..<count]
        }
    }

    private static func parseHead(
        _ bytes: ArraySlice<UInt8>
    ) -> (method: String, target: String, headers: [String: String]) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ").map(String.init) ?? []
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        return (requestLine.first ?? "", requestLine.dropFirst().first ?? "", headers)
    }

    /// Waits until `fd` can be read; `false` once the server stops.
    private func waitReadable(_ fd: Int32) -> Bool {
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0 && fds[1].revents == 0
        }
    }
}
