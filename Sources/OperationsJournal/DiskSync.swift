#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The call that makes a file's written bytes survive a power loss, for the platform: the one
/// place the journal, its directory entries and the benchmark's floor take it from.
package enum DiskSync {
    /// Pushes the file open at `descriptor` to stable storage; `0`, or `-1` with `errno` set.
    ///
    /// On Darwin `fsync(2)` hands the data to the drive but does not flush the drive's cache,
    /// which may also reorder writes (Apple's fsync(2) man page), so a power loss can take what
    /// fsync returned for: `fcntl(F_FULLFSYNC)` asks the drive to flush, and where the file
    /// system does not support it (some network and FUSE volumes) `fsync` is the fallback, as
    /// SQLite's `fullfsync` does. On Linux `fsync(2)` reaches the device.
    package static func full(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
            return fsync(descriptor)
        #else
            return fsync(descriptor)
        #endif
    }
}
