#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls AuthFlow's client and LoopbackHTTP's server both make, in one place because
/// Glibc and Darwin spell them differently (`MSG_NOSIGNAL` against `SO_NOSIGPIPE`).
package enum SocketCalls {
    /// Makes a descriptor non-blocking and closed on exec, so a child process (tests spawn some)
    /// never inherits a connection or the server's port.
    package static func configure(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
        guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else { return false }
        #if canImport(Darwin)
            // Darwin has no MSG_NOSIGNAL: a write to a closed peer must not raise SIGPIPE.
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return true
    }

    /// Sends bytes without raising SIGPIPE when the peer has gone.
    ///
    /// - Returns: The count sent, 0 for no bytes, or -1 with `errno` set.
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        #if canImport(Glibc)
            // Linux: MSG_NOSIGNAL, so a peer that left gives EPIPE, not SIGPIPE.
            return Glibc.send(fd, base, bytes.count, Int32(MSG_NOSIGNAL))
        #else
            // Darwin: SO_NOSIGPIPE, set in `configure`, does the same.
            return Darwin.send(fd, base, bytes.count, 0)
        #endif
    }

    /// Whether the last call failed only because it would have blocked, or was interrupted.
    package static var wouldBlock: Bool {
        errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
    }
}
