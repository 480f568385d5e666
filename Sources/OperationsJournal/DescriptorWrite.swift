#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing a whole buffer to a file descriptor: the loop every owner-only file of the package
/// needs (journals, streamed traces, opctl's state files), in one place.
package enum DescriptorWrite {
    /// Writes all of `bytes`, continuing after partial writes and interruptions.
    ///
    /// - Returns: `nil` when everything was written, else the `errno` of the failed write.
    package static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}
