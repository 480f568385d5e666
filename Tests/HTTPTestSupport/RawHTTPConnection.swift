import Foundation
import OperationsTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP connection to 127.0.0.1 that writes whatever bytes a test wants — malformed,
/// oversized, half a request — and reads until the server closes, with a receive timeout so a
/// server that never answers fails the test instead of hanging it.
package final class RawHTTPConnection {
    /// What came back before the connection ended (or the wait gave up).
    package struct Reply: CustomStringConvertible {
        package let bytes: [UInt8]
        /// Whether the server closed the connection (end of stream or reset); `false` when the
        /// receive timeout expired first.
        package let closed: Bool
        package let elapsed: Duration

        package var text: String { String(decoding: bytes, as: UTF8.self) }

        /// The status of the first response, if one arrived.
        package var status: Int? {
            guard text.hasPrefix("HTTP/1.1 "), let code = Int(text.dropFirst(9).prefix(3)) else { return nil }
            return code
        }

        /// The body of the response.
        package var body: String {
            guard let range = text.range(of: "\r\n\r\n") else { return "" }
            return String(text[range.upperBound...])
        }

        package var description: String {
            "\(closed ? "closed" : "still open") after \(elapsed), \(bytes.count) bytes: \(text.prefix(300))"
        }
    }

    private let fd: Int32

    /// Connects to `127.0.0.1:port`.
    ///
    /// - Parameter receiveTimeout: The longest a read waits for data.
    /// - Throws: ``SocketFailure``.
    package init(port: UInt16, receiveTimeout: Duration = TestTimeout.standard) throws(SocketFailure) {
        // Connected before `self.fd` is set: an initialiser that throws once every property is
        // set runs `deinit`, which would close the descriptor a second time — by then perhaps
        // another thread's file under the same number.
        let fd = try LoopbackSocket.make()
        var timeout = timeval(
            tv_sec: Int(receiveTimeout.components.seconds),
            tv_usec: .init(receiveTimeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        do {
            try LoopbackSocket.connect(fd, port: port)
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// Writes every byte, or as many as the server takes before it closes.
    ///
    /// - Returns: Whether all were written.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        LoopbackSocket.sendAll(fd, bytes)
    }

    /// Writes text as UTF-8.
    @discardableResult
    package func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the server closes the connection or a read times out.
    package func readToEnd() -> Reply {
        let clock = ContinuousClock()
        let start = clock.now
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes += chunk[0..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            let timedOut = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            return Reply(bytes: bytes, closed: !timedOut, elapsed: clock.now - start)
        }
    }

    /// Sends a request and reads the answer to the end.
    package func exchange(_ request: [UInt8]) -> Reply {
        send(request)
        return readToEnd()
    }

    /// A well-formed request: request line, `Host`, the headers given, `Content-Length` when
    /// there is a body, then the body.
    package static func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// ``request(_:_:headers:body:)`` with a text body.
    package static func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String
    ) -> [UInt8] {
        request(method, target, headers: headers, body: Array(body.utf8))
    }
}
