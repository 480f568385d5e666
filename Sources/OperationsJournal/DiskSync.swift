#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calls that push a file's written bytes towards stable storage, for the platform: the one
/// place the journal (through ``JournalIO``), its directory entries and the benchmark's floor
/// take them from.
///
/// Each ``Guarantee`` is a promise about a power loss, and each platform keeps it with its own
/// calls (``calls(for:on:)``, the table of `ScenarioJournal.Durability`), tried in order until
/// one succeeds. On Darwin `fsync(2)` hands the data to the drive but does not flush the drive's
/// cache, which may also reorder writes (Apple's fsync(2) man page), so a power loss can take
/// what fsync returned for: `F_FULLFSYNC` asks the drive to flush, `F_BARRIERFSYNC` only that
/// writes before it land before writes after it, and where the file system supports neither
/// (some network and FUSE volumes) `fsync` is the fallback, as SQLite's `fullfsync` does. Linux
/// has no barrier-only call: `fdatasync(2)` reaches the device without the metadata a journal's
/// reader does not need, `fsync(2)` with it.
package enum DiskSync {
    /// What a sync promises about a power loss.
    package enum Guarantee: Sendable, Equatable {
        /// Bytes written before the sync reach the disk before bytes written after it: after a
        /// power loss the file is a prefix of what was written.
        case ordered
        /// Bytes written before the sync are on the disk when it returns.
        case durable
    }

    /// One system call a sync can make.
    package enum SystemCall: Sendable, Equatable, CustomStringConvertible {
        /// Darwin's `fcntl(F_FULLFSYNC)`: the drive flushes its cache.
        case fullFsync
        /// Darwin's `fcntl(F_BARRIERFSYNC)`: an ordering barrier, no flush.
        case barrierFsync
        /// `fsync(2)`.
        case fsync
        /// `fdatasync(2)` (Linux).
        case fdatasync

        package var description: String {
            switch self {
            case .fullFsync: "fcntl(F_FULLFSYNC)"
            case .barrierFsync: "fcntl(F_BARRIERFSYNC)"
            case .fsync: "fsync"
            case .fdatasync: "fdatasync"
            }
        }
    }

    /// The platforms whose calls differ.
    package enum Platform: Sendable, Equatable {
        case darwin, linux

        /// The platform this was built for; any platform other than Darwin takes Linux's calls.
        package static var current: Platform {
            #if canImport(Darwin)
                .darwin
            #else
                .linux
            #endif
        }
    }

    /// The calls that keep `guarantee` on `platform`, the first preferred and each later one the
    /// fallback when the one before it fails.
    package static func calls(for guarantee: Guarantee, on platform: Platform) -> [SystemCall] {
        switch (guarantee, platform) {
        case (.ordered, .darwin): [.barrierFsync, .fsync]
        case (.durable, .darwin): [.fullFsync, .fsync]
        case (.ordered, .linux): [.fdatasync]
        case (.durable, .linux): [.fsync]
        }
    }

    /// Keeps `guarantee` for the file open at `descriptor` on this platform; `0`, or `-1` with
    /// `errno` set by the last call tried.
    package static func sync(_ descriptor: Int32, _ guarantee: Guarantee) -> Int32 {
        run(calls(for: guarantee, on: .current), on: descriptor, making: perform)
    }

    /// Makes `calls` in order until one returns `0`: the fallback chain, apart from the system so
    /// that a test can fail the first call and see the next one made.
    package static func run(
        _ calls: [SystemCall], on descriptor: Int32, making make: (SystemCall, Int32) -> Int32
    ) -> Int32 {
        for call in calls where make(call, descriptor) == 0 { return 0 }
        return -1
    }

    /// The platform's durable sync (``Guarantee/durable``); `0`, or `-1` with `errno` set.
    package static func full(_ descriptor: Int32) -> Int32 { sync(descriptor, .durable) }

    /// Makes one system call; a call the platform lacks fails with `ENOTSUP`, which
    /// ``calls(for:on:)`` never asks for.
    package static func perform(_ call: SystemCall, _ descriptor: Int32) -> Int32 {
        switch call {
        case .fullFsync:
            // F_FULLFSYNC is Darwin's; Linux's fsync already reaches the device.
            #if canImport(Darwin)
                return fcntl(descriptor, F_FULLFSYNC)
            #else
                errno = ENOTSUP
                return -1
            #endif
        case .barrierFsync:
            // F_BARRIERFSYNC is Darwin's (macOS 10.13, iOS 11); Linux has no barrier-only call.
            #if canImport(Darwin)
                return fcntl(descriptor, F_BARRIERFSYNC)
            #else
                errno = ENOTSUP
                return -1
            #endif
        case .fsync:
            return fsync(descriptor)
        case .fdatasync:
            // fdatasync is Linux's (Darwin has no declared fdatasync in its SDK).
            #if canImport(Glibc) || canImport(Musl)
                return fdatasync(descriptor)
            #else
                return fsync(descriptor)
            #endif
        }
    }
}
