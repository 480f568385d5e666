import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a loopback socket could not be opened, bound or connected.
package struct SocketFailure: Error, CustomStringConvertible {
    /// The call that failed: `socket`, `bind`, `connect`, …
    package let step: String
    /// The `errno` it left.
    package let code: Int32

    package var description: String { "\(step) failed: \(String(cString: strerror(code)))" }
}

/// The socket plumbing of the loopback helpers, once: a TCP socket, the address
/// 127.0.0.1:`port`, the port a socket got, and a send that survives a peer that went away.
enum LoopbackSocket {
    /// A new TCP socket.
    ///
    /// - Throws: ``SocketFailure``.
    static func make() throws(SocketFailure) -> Int32 {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketFailure(step: "socket", code: errno) }
        #if canImport(Darwin)
            // Linux passes MSG_NOSIGNAL to each send instead.
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return fd
    }

    /// Binds `fd` to 127.0.0.1:`port` (0: any free port).
    ///
    /// - Throws: ``SocketFailure``.
    static func bind(_ fd: Int32, port: UInt16 = 0) throws(SocketFailure) {
        let bound = withAddress(port: port) { address, length in
            #if canImport(Glibc)
                Glibc.bind(fd, address, length)
            #else
                Darwin.bind(fd, address, length)
            #endif
        }
        guard bound == 0 else { throw SocketFailure(step: "bind", code: errno) }
    }

    /// Connects `fd` to 127.0.0.1:`port`.
    ///
    /// - Throws: ``SocketFailure``.
    static func connect(_ fd: Int32, port: UInt16) throws(SocketFailure) {
        let connected = withAddress(port: port) { address, length in
            #if canImport(Glibc)
                Glibc.connect(fd, address, length)
            #else
                Darwin.connect(fd, address, length)
            #endif
        }
        guard connected == 0 else { throw SocketFailure(step: "connect", code: errno) }
    }

    /// The port `fd` is bound to.
    ///
    /// - Throws: ``SocketFailure``.
    static func boundPort(_ fd: Int32) throws(SocketFailure) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw SocketFailure(step: "getsockname", code: errno) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Writes every byte, retrying after a signal; stops when the peer is gone (no SIGPIPE).
    ///
    /// - Returns: Whether all were written.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { raw in
                #if canImport(Glibc)
                    Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                #else
                    Darwin.send(fd, raw.baseAddress, raw.count, 0)
                #endif
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func withAddress<Result>(
        port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}

/// A TCP port on 127.0.0.1 where nothing listens: bound to get a free number, then closed.
///
/// - Throws: ``SocketFailure``.
package func closedLoopbackPort() throws(SocketFailure) -> UInt16 {
    let fd = try LoopbackSocket.make()
    defer { close(fd) }
    try LoopbackSocket.bind(fd)
    return try LoopbackSocket.boundPort(fd)
}
