import AuthFlow
import Foundation
import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 that hands every request to an ``HTTPTransport`` (the
/// simulator) and writes its answer back, so `URLSessionTransport` can be tested over a real
/// socket. One request per connection (`Connection: close`); a blocking thread per connection is
/// plenty for a test.
///
/// It can also hold every request unanswered (``Mode/hold``) and report when the client closes
/// the connection, or give one fixed answer (``Mode/answer(_:)``), e.g. a redirect.
final class LoopbackHTTPServer: Sendable {
    /// Why the server could not start; the test is skipped with this reason.
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// What the server does with a request.
    enum Mode: Sendable {
        /// Hands it to a transport (the simulator) and writes the answer back.
        case serve(any HTTPTransport)
        /// Never answers; waits for the client to close the connection.
        case hold
        /// Writes this response.
        case answer(HTTPResponse)
    }

    let port: UInt16
    private let listener: Int32
    private let mode: Mode
    private let open = LockedState<Set<Int32>>([])
    private let received = LockedState<[HTTPRequest]>([])
    private let requestArrived = DispatchSemaphore(value: 0)
    private let clientClosed = DispatchSemaphore(value: 0)

    convenience init(serving backend: any HTTPTransport) throws(StartFailure) {
        try self.init(mode: .serve(backend))
    }

    init(mode: Mode) throws(StartFailure) {
        self.mode = mode
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw StartFailure(description: "socket() failed: errno \(errno)") }
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
            let code = errno
            close(fd)
            throw StartFailure(description: "cannot listen on 127.0.0.1: errno \(code)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw StartFailure(description: "getsockname() failed: errno \(errno)")
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Closes the listener and every connection still open (those a hang left unanswered).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in open.withLock({ $0 }) { closeConnection(fd) }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            open.withLock { _ = $0.insert(connection) }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    /// Every request read so far, in order.
    var requests: [HTTPRequest] { received.withLock { $0 } }

    /// Waits until a request has been read (one per call).
    ///
    /// - Parameter timeout: How long to wait.
    /// - Returns: Whether one arrived in time.
    func waitForRequest(timeout: Duration = .seconds(5)) -> Bool {
        requestArrived.wait(timeout: .now() + timeout.dispatchInterval) == .success
    }

    /// Waits until the client closed a held connection (one per call): the server saw it leave.
    ///
    /// - Parameter timeout: How long to wait.
    /// - Returns: Whether the close came in time.
    func waitForClientClose(timeout: Duration = .seconds(5)) -> Bool {
        clientClosed.wait(timeout: .now() + timeout.dispatchInterval) == .success
    }

    private func serve(_ fd: Int32) {
        guard let request = readRequest(fd) else {
            closeConnection(fd)
            return
        }
        received.withLock { $0.append(request) }
        requestArrived.signal()
        switch mode {
        case .serve(let backend):
            backend.send(request) { [self] result in
                switch result {
                case .success(let response): write(response, to: fd)
                case .failure: break
                }
                closeConnection(fd)
            }
        case .answer(let response):
            write(response, to: fd)
            closeConnection(fd)
        case .hold:
            // Blocks until the client closes its end (0) or the connection breaks (-1).
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) > 0 {}
            clientClosed.signal()
            closeConnection(fd)
        }
    }

    private func closeConnection(_ fd: Int32) {
        // Only the first closer closes, so a descriptor number reused by a later accept is safe.
        guard open.withLock({ $0.remove(fd) }) != nil else { return }
        close(fd)
    }

    private func readRequest(_ fd: Int32) -> HTTPRequest? {
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

    private func write(_ response: HTTPResponse, to fd: Int32) {
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers.fields where name != "content-length" && name != "connection" {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + Array(response.body)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { raw in
                #if canImport(Glibc)
                    Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                #else
                    Darwin.send(fd, raw.baseAddress, raw.count, 0)
                #endif
            }
            guard count > 0 else { return }
            sent += count
        }
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
