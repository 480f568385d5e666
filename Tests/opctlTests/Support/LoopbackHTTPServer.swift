import AuthFlow
import Dispatch
import Foundation
import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for end-to-end tests of the built opctl: it answers
/// through a handler (by default a ``SimulatedBackend``), counts requests per path, records each
/// request's `Idempotency-Key`, and can hold the requests of one path until ``release()``,
/// noticing when the client closes the connection meanwhile (Ctrl-C, kill -9).
///
/// Blocking sockets on one thread per connection: a test sees a handful of requests.
final class LoopbackHTTPServer: Sendable {
    struct State {
        var counts: [String: Int] = [:]
        var idempotencyKeys: [String: [String]] = [:]
        var heldPath: String?
        var released = false
        var heldArrivals = 0
        var closedWhileHeld = 0
        var stopped = false
    }

    struct Failure: Error, CustomStringConvertible {
        let step: String
        var description: String { "loopback server: \(step) failed: \(String(cString: strerror(errno)))" }
    }

    let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let state = LockedState(State())
    private let changed = DispatchSemaphore(value: 0)

    /// Serves `backend` (a fresh ``SimulatedBackend`` by default).
    convenience init(backend: SimulatedBackend = SimulatedBackend()) throws {
        try self.init { request in
            let answer = LockedState<HTTPResponse?>(nil)
            let done = DispatchSemaphore(value: 0)
            backend.send(request) { result in
                answer.withLock { $0 = (try? result.get()) ?? HTTPResponse(status: 502) }
                done.signal()
            }
            // A hanging fault never answers; the client's timeout ends that exchange.
            _ = done.wait(timeout: .now() + 30)
            return answer.withLock { $0 } ?? HTTPResponse(status: 504)
        }
    }

    /// Serves through `handler`.
    init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        self.handler = handler
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(step: "socket") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw Failure(step: "bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit {
        stop()
    }

    /// The `--backend` value that points opctl here.
    var backendSpec: String { "http://127.0.0.1:\(port)" }

    /// Stops accepting; held requests are released.
    func stop() {
        let first = state.withLock { state -> Bool in
            defer {
                state.stopped = true
                state.released = true
            }
            return !state.stopped
        }
        if first {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    /// Holds every request whose path ends with `suffix` (e.g. `code/send`) until ``release()``.
    func hold(pathEndingWith suffix: String) {
        state.withLock {
            $0.heldPath = suffix
            $0.released = false
        }
    }

    /// Lets the held requests be answered (those whose client is still there).
    func release() {
        state.withLock { $0.released = true }
    }

    /// How many requests reached a path (ending with `suffix`).
    func count(pathEndingWith suffix: String) -> Int {
        state.withLock { $0.counts.filter { $0.key.hasSuffix(suffix) }.values.reduce(0, +) }
    }

    /// The `Idempotency-Key` headers sent to a path, in arrival order.
    func idempotencyKeys(pathEndingWith suffix: String) -> [String] {
        state.withLock { $0.idempotencyKeys.filter { $0.key.hasSuffix(suffix) }.flatMap(\.value) }
    }

    /// Waits until `condition` holds on the server's state, or `timeout` seconds pass.
    @discardableResult
    func wait(timeout: Double = 10, until condition: (State) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while !state.withLock({ condition($0) }) {
            if changed.wait(timeout: deadline) == .timedOut { return state.withLock { condition($0) } }
        }
        return true
    }

    private func update(_ body: (inout State) -> Void) {
        state.withLock(body)
        changed.signal()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var buffer = Data()
        while let request = Self.readRequest(client, buffer: &buffer) {
            let path = request.path
            let held = state.withLock { state -> Bool in
                state.counts[path, default: 0] += 1
                if let key = request.headers["Idempotency-Key"] { state.idempotencyKeys[path, default: []].append(key) }
                return state.heldPath.map { path.hasSuffix($0) } ?? false
            }
            changed.signal()
            if held {
                update { $0.heldArrivals += 1 }
                if !holdUntilReleased(client) {
                    update { $0.closedWhileHeld += 1 }
                    return
                }
            }
            let response = handler(request)
            guard Self.writeResponse(response, to: client) else { return }
        }
    }

    /// Waits for ``release()``; `false` when the client closed the connection first.
    private func holdUntilReleased(_ client: Int32) -> Bool {
        while !state.withLock({ $0.released }) {
            var descriptor = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 10)
            if ready > 0 {
                var byte: UInt8 = 0
                if recv(client, &byte, 1, Int32(MSG_PEEK)) <= 0 { return false }
            }
        }
        return true
    }

    private static func readRequest(_ client: Int32, buffer: inout Data) -> HTTPRequest? {
        let separator = Data("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.range(of: separator) == nil {
            let count = recv(client, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
        guard let end = buffer.range(of: separator) else { return nil }
        let head = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
        buffer = Data(buffer[end.upperBound...])
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2, let method = HTTPMethod(rawValue: String(requestLine[0])) else { return nil }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["Content-Length"] ?? "0") ?? 0
        while buffer.count < length {
            let count = recv(client, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
        let body = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        return HTTPRequest(method: method, path: String(requestLine[1]), headers: headers, body: body)
    }

    private static func writeResponse(_ response: HTTPResponse, to client: Int32) -> Bool {
        var head = "HTTP/1.1 \(response.status) Status\r\nContent-Length: \(response.body.count)\r\n"
        for (name, value) in response.headers.fields where name.lowercased() != "content-length" {
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        let data = Data(head.utf8) + response.body
        return data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = send(client, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }
}
