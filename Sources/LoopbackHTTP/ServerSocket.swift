import HTTPWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls of ``HTTPServer`` the client does not share (`SocketCalls`), in one place
/// because Glibc and Darwin spell them differently (socket types, `sockaddr` lengths).
enum ServerSocket {
    /// An IPv4 or IPv6 address with a port, as `bind` takes it.
    enum Address {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)

        /// Parses an IP literal; `localhost` is 127.0.0.1 so the common spelling works without a
        /// resolver.
        init?(host: String, port: UInt16) {
            let literal = host == "localhost" ? "127.0.0.1" : host
            var v4 = sockaddr_in()
            if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_port = port.bigEndian
                #if canImport(Darwin)
                    v4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
                #endif
                self = .v4(v4)
                return
            }
            var v6 = sockaddr_in6()
            if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
                v6.sin6_family = sa_family_t(AF_INET6)
                v6.sin6_port = port.bigEndian
                #if canImport(Darwin)
                    v6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
                #endif
                self = .v6(v6)
                return
            }
            return nil
        }

        var family: Int32 {
            switch self {
            case .v4: AF_INET
            case .v6: AF_INET6
            }
        }

        /// The address in its canonical text form, e.g. `127.0.0.1` or `::1`.
        var host: String {
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            switch self {
            case .v4(var address):
                _ = inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count))
            case .v6(var address):
                _ = inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count))
            }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        var port: UInt16 {
            switch self {
            case .v4(let address): UInt16(bigEndian: address.sin_port)
            case .v6(let address): UInt16(bigEndian: address.sin6_port)
            }
        }

        /// Whether only this machine can reach the address: 127.0.0.0/8, `::1`, or an IPv4-mapped
        /// 127.x address.
        var isLoopback: Bool {
            switch self {
            case .v4(let address):
                return UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
            case .v6(var address):
                let bytes = withUnsafeBytes(of: &address.sin6_addr) { Array($0) }
                let loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
                let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
                return loopback || (mapped && bytes[12] == 127)
            }
        }

        func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
            func call<Raw>(_ raw: Raw) -> Result {
                withUnsafePointer(to: raw) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        body($0, socklen_t(MemoryLayout<Raw>.size))
                    }
                }
            }
            switch self {
            case .v4(let address): return call(address)
            case .v6(let address): return call(address)
            }
        }
    }

    /// Creates a non-blocking listening socket bound to `address`.
    ///
    /// - Returns: The descriptor and the address as bound (with the port the system picked for 0).
    static func listen(on address: Address, backlog: Int32) throws(HTTPServerError) -> (Int32, Address) {
        #if canImport(Glibc)
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(address.family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .systemCall("socket", code: errno) }
        // Restarting right after a stop must not wait for TIME_WAIT; a second listener on the
        // same port is still refused (EADDRINUSE) on Linux and Darwin alike.
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if case .v6 = address {
            // `::` then means IPv6 only, as written; 0.0.0.0 is the IPv4 spelling.
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        if bound != 0 {
            let code = errno
            close(fd)
            switch code {
            case EADDRINUSE: throw .addressInUse(host: address.host, port: address.port)
            case EACCES: throw .permissionDenied(host: address.host, port: address.port)
            case EADDRNOTAVAIL: throw .addressNotAvailable(host: address.host)
            default: throw .systemCall("bind", code: code)
            }
        }
        guard SocketCalls.configure(fd), systemListen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw .systemCall("listen", code: code)
        }
        guard let actual = boundAddress(fd, like: address) else {
            let code = errno
            close(fd)
            throw .systemCall("getsockname", code: code)
        }
        return (fd, actual)
    }

    /// Accepts one pending connection, made non-blocking.
    ///
    /// - Returns: The descriptor, or `nil` with `errno` set (`EAGAIN` when none is pending).
    static func accept(_ listener: Int32) -> Int32? {
        #if canImport(Glibc)
            let fd = Glibc.accept(listener, nil, nil)
        #else
            let fd = Darwin.accept(listener, nil, nil)
        #endif
        guard fd >= 0 else { return nil }
        guard SocketCalls.configure(fd) else {
            close(fd)
            errno = ECONNABORTED
            return nil
        }
        return fd
    }

    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        recv(fd, buffer.baseAddress, buffer.count, 0)
    }

    /// Ends the server's side of the conversation (FIN) while still reading what the client sends.
    static func shutdownWrite(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    private static func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.listen(fd, backlog)
        #else
            Darwin.listen(fd, backlog)
        #endif
    }

    private static func boundAddress(_ fd: Int32, like address: Address) -> Address? {
        func named<Raw>(_ empty: Raw) -> Raw? {
            var bound = empty
            var length = socklen_t(MemoryLayout<Raw>.size)
            let named = withUnsafeMutablePointer(to: &bound) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            return named == 0 ? bound : nil
        }
        switch address {
        case .v4: return named(sockaddr_in()).map(Address.v4)
        case .v6: return named(sockaddr_in6()).map(Address.v6)
        }
    }
}
