import HTTPWire
import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls of ``PlainHTTPTransport`` the server does not share (`SocketCalls`), in one
/// place because Glibc and Darwin spell them differently (socket types).
///
/// Every descriptor is non-blocking and every wait is a `poll` that also watches an
/// ``ExchangeStop``'s pipe, so cancellation and the deadline end a wait at once from another
/// thread without closing a descriptor under the thread that uses it.
enum ClientSocket {
    /// What a wait ended with.
    enum Wait {
        /// The socket is ready (or has an error or hang-up the next call reports).
        case ready
        /// The exchange was stopped: cancelled, or past its deadline.
        case stopped
    }

    /// Connects to `host`:`port`, trying each address the resolver gives in turn.
    ///
    /// - Returns: A connected, non-blocking socket; the caller closes it.
    /// - Throws: ``TransportError/unreachable(reason:)`` with the resolver's or the last
    ///   connection's reason, or the stop's error when the exchange was stopped meanwhile.
    static func connect(host: String, port: UInt16, stop: ExchangeStop) throws(TransportError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            // Glibc: SOCK_STREAM is an enum case, not an Int32.
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw .unreachable(reason: "host not found")
        }
        defer { freeaddrinfo(list) }
        var reason = "no address to connect to"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let info = address.pointee
            let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
            guard fd >= 0 else {
                reason = describe(errno)
                continue
            }
            guard SocketCalls.configure(fd) else {
                reason = describe(errno)
                close(fd)
                continue
            }
            if systemConnect(fd, info.ai_addr, info.ai_addrlen) == 0 {
                return fd
            }
            guard errno == EINPROGRESS || errno == EINTR else {
                reason = describe(errno)
                close(fd)
                continue
            }
            if case .stopped = wait(fd, for: Int16(POLLOUT), stop: stop) {
                close(fd)
                throw stop.error
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0, code == 0 else {
                reason = describe(code == 0 ? errno : code)
                close(fd)
                continue
            }
            return fd
        }
        throw .unreachable(reason: reason)
    }

    /// Writes every byte, waiting whenever the socket's buffer is full.
    ///
    /// - Returns: `true` when all were written; `false` when the connection broke first.
    /// - Throws: The stop's error when the exchange was stopped meanwhile.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], stop: ExchangeStop) throws(TransportError) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { SocketCalls.send(fd, $0) }
            if sent > 0 {
                offset += sent
                continue
            }
            guard sent < 0, SocketCalls.wouldBlock else { return false }
            if case .stopped = wait(fd, for: Int16(POLLOUT), stop: stop) { throw stop.error }
        }
        return true
    }

    /// Reads what has arrived, waiting until something has.
    ///
    /// - Returns: The bytes; empty when the connection ended (closed or reset).
    /// - Throws: The stop's error when the exchange was stopped meanwhile.
    static func read(_ fd: Int32, into buffer: inout [UInt8], stop: ExchangeStop) throws(TransportError)
        -> ArraySlice<UInt8>
    {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return buffer[0..<count] }
            guard count < 0, SocketCalls.wouldBlock else { return [] }
            if case .stopped = wait(fd, for: Int16(POLLIN), stop: stop) { throw stop.error }
        }
    }

    /// Waits until `fd` is ready for `events` or the exchange is stopped; a stop wins a tie.
    static func wait(_ fd: Int32, for events: Int16, stop: ExchangeStop) -> Wait {
        var fds = [
            pollfd(fd: fd, events: events, revents: 0),
            pollfd(fd: stop.wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 && errno == EINTR { continue }
            // A failed poll is left to the next read or write to report.
            return fds[1].revents != 0 ? .stopped : .ready
        }
    }

    private static func systemConnect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t)
        -> Int32
    {
        #if canImport(Glibc)
            Glibc.connect(fd, address, length)
        #else
            Darwin.connect(fd, address, length)
        #endif
    }

    /// `connection refused`, or the system's words for another `errno`, lowercased.
    private static func describe(_ code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "connection refused"
        case ENETUNREACH, EHOSTUNREACH: "no route to the host"
        case ETIMEDOUT: "the connection timed out"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}

/// Stops one exchange from any thread: cancellation and the deadline write a byte into a pipe
/// that every wait of the exchange's thread watches.
///
/// The pipe is closed under the same lock that writing to it takes, so a stop that comes after
/// the exchange ended writes nothing, never into a descriptor number another file now has.
final class ExchangeStop: Sendable {
    enum Reason: Sendable {
        case cancelled
        case timedOut
    }

    private struct State {
        var reason: Reason?
        /// The pipe's write end; -1 once closed.
        var wakeWrite: Int32
    }

    /// The pipe's read end, which waits watch; never read, so once written it stays readable.
    let wakeRead: Int32
    private let state: LockedState<State>

    /// Opens the pipe; `nil` when the system has no descriptors left.
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        guard SocketCalls.configure(ends[0]), SocketCalls.configure(ends[1]) else {
            close(ends[0])
            close(ends[1])
            return nil
        }
        wakeRead = ends[0]
        state = LockedState(State(wakeWrite: ends[1]))
    }

    /// Stops the exchange for `reason`; the first reason given is the one reported.
    func stop(_ reason: Reason) {
        state.withLock { state in
            guard state.reason == nil else { return }
            state.reason = reason
            guard state.wakeWrite >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(state.wakeWrite, &byte, 1)
        }
    }

    /// Whether the exchange was stopped: checked before the request is written, so a request
    /// cancelled while connecting never goes out.
    var isStopped: Bool { state.withLock { $0.reason != nil } }

    /// The error a stopped exchange ends with.
    var error: TransportError {
        state.withLock { $0.reason } == .timedOut ? .timeout : .cancelled
    }

    /// Closes the pipe; the exchange calls it once, when it has ended.
    func closePipe() {
        state.withLock { state in
            close(state.wakeWrite)
            state.wakeWrite = -1
        }
        close(wakeRead)
    }
}
