import Foundation
import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX calls behind a journal file, in one place: owner-only directories,
/// whole-buffer appends, sync, and the advisory lock that marks a journal as being written.
///
/// Foundation's `FileHandle` cannot create exclusively with a mode or take a `flock`, and
/// hides `errno`, which the errors here quote in plain words.
enum JournalFile {
    /// Owner read and write only (contract 9: a journal may hold secrets).
    static let fileMode: mode_t = 0o600
    static let directoryMode: mode_t = 0o700

    /// Creates `url` and any missing parents with mode 0700; existing directories keep their mode.
    static func makeDirectory(_ url: URL) throws(JournalError) {
        var missing: [URL] = []
        var current = url.standardizedFileURL
        while !exists(current) {
            missing.append(current)
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { break }
            current = parent
        }
        for directory in missing.reversed() {
            let result = directory.withUnsafeFileSystemRepresentation { path in
                path.map { mkdir($0, directoryMode) } ?? -1
            }
            if result != 0 && errno != EEXIST {
                throw .io(directory, operation: "create the directory", reason: lastErrorText())
            }
        }
    }

    /// Opens an existing journal for appending and takes the writer's lock.
    ///
    /// - Throws: ``JournalError/runInProgress(_:)`` when a live writer holds the lock.
    static func openForAppending(_ url: URL) throws(JournalError) -> Int32 {
        let descriptor = openDescriptor(url, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(url, operation: "open", reason: lastErrorText()) }
        if !lock(descriptor, LOCK_EX) {
            let busy = errno == EWOULDBLOCK
            let reason = lastErrorText()
            _ = close(descriptor)
            throw busy ? .runInProgress(url) : .io(url, operation: "lock", reason: reason)
        }
        // A run parked by a live process has let go of its lock but not of its run.
        if ParkMark.isHeldByLiveProcess(url) {
            _ = flock(descriptor, LOCK_UN)
            _ = close(descriptor)
            throw .runInProgress(url)
        }
        return descriptor
    }

    /// Takes the writer's lock again on a descriptor that let go of it (a parked run going on);
    /// `false` when another writer holds it.
    static func relock(_ descriptor: Int32) -> Bool {
        lock(descriptor, LOCK_EX)
    }

    /// Whether a live writer holds the journal's lock, or has parked the run without it
    /// (``ParkMark``). The lock dies with its process, so a journal without a finish event and
    /// without a lock was left by a process that was killed.
    static func isBeingWritten(_ url: URL) -> Bool {
        let descriptor = openDescriptor(url, O_RDONLY | O_CLOEXEC)
        return isBeingWritten(descriptor: descriptor) || ParkMark.isHeldByLiveProcess(url)
    }

    /// ``isBeingWritten(_:)`` for a refusal rather than a status: a lock found held is tried
    /// again through ``lockGrace`` before the run counts as another writer's.
    static func isHeldByAnotherWriter(_ url: URL) -> Bool {
        let descriptor = openDescriptor(url, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        if lock(descriptor, LOCK_SH) {
            _ = flock(descriptor, LOCK_UN)
            return ParkMark.isHeldByLiveProcess(url)
        }
        return errno == EWOULDBLOCK
    }

    /// How long a lock found held is tried again before the run counts as another writer's.
    ///
    /// A `flock` belongs to the open file, and a process that forks copies its open files: until
    /// the child execs (and its close-on-exec copy goes), the child holds the lock too. So a
    /// program that closes a run and resumes it at once, while another of its threads starts a
    /// process, can find the lock of a writer that has already let go. The window is the time
    /// between a fork and an exec, well under this; a live writer holds the lock for as long as it
    /// runs, so waiting this long only delays the refusal it gets anyway.
    static let lockGrace: Duration = .milliseconds(500)

    /// Takes `operation` (`LOCK_EX` or `LOCK_SH`) without blocking, trying again through
    /// ``lockGrace`` while the lock is held. On failure `errno` says why.
    private static func lock(_ descriptor: Int32, _ operation: Int32) -> Bool {
        let giveUp = ContinuousClock.now.advanced(by: lockGrace)
        while flock(descriptor, operation | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK, ContinuousClock.now < giveUp else { return false }
            usleep(2_000)
            errno = EWOULDBLOCK
        }
        return true
    }

    /// The same for a journal named by path: a listing asks it of thousands of journals and
    /// makes no `URL` for each.
    static func isBeingWritten(path: String) -> Bool {
        isBeingWritten(descriptor: open(path, O_RDONLY | O_CLOEXEC)) || ParkMark.isHeldByLiveProcess(path: path)
    }

    private static func isBeingWritten(descriptor: Int32) -> Bool {
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            _ = flock(descriptor, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    static func readAll(_ url: URL) throws(JournalError) -> [UInt8] {
        let descriptor = openDescriptor(url, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(url, operation: "open", reason: lastErrorText()) }
        defer { _ = close(descriptor) }
        var bytes: [UInt8] = []
        // Room for the whole file at once (Docs/Benchmarks.md): a writer appending meanwhile
        // only makes it grow once more.
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size) + 1) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(url, operation: "read", reason: lastErrorText())
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Cuts the file to `length` bytes: drops a torn last line before appending after it.
    static func truncate(_ descriptor: Int32, to length: Int, url: URL) throws(JournalError) {
        if ftruncate(descriptor, off_t(length)) != 0 {
            throw .io(url, operation: "truncate", reason: lastErrorText())
        }
    }

    /// Flushes the directory entry of a newly created file to disk (durable mode).
    static func syncDirectory(_ url: URL) {
        let descriptor = openDescriptor(url, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = DiskSync.full(descriptor)
        _ = close(descriptor)
    }

    /// Releases the lock and closes the descriptor.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// `open(2)` of `url`: the descriptor, or -1 with `errno` set.
    static func openDescriptor(_ url: URL, _ flags: Int32, mode: mode_t = 0) -> Int32 {
        url.withUnsafeFileSystemRepresentation { path in path.map { open($0, flags, mode) } ?? -1 }
    }

    /// `unlink(2)` of `url`: 0, or -1 with `errno` set.
    @discardableResult
    static func unlinkFile(_ url: URL) -> Int32 {
        url.withUnsafeFileSystemRepresentation { path in path.map { unlink($0) } ?? -1 }
    }

    static func exists(_ url: URL) -> Bool {
        var info = stat()
        return url.withUnsafeFileSystemRepresentation { path in path.map { stat($0, &info) == 0 } ?? false }
    }

    /// `errno` in words.
    static func lastErrorText() -> String {
        String(cString: strerror(errno))
    }
}

extension JournalFile {
    /// The platform's full sync (``DiskSync/full(_:)``), with its failure in words.
    static func sync(_ descriptor: Int32) -> String? {
        DiskSync.full(descriptor) == 0 ? nil : lastErrorText()
    }

    /// Removes a file; used to take back a journal whose header could not be written.
    static func remove(_ url: URL) {
        unlinkFile(url)
    }
}
