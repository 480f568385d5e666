import Foundation
import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX calls behind keeping a run directory tidy: listing it, replacing the index
/// atomically, and removing a run while holding its lock.
extension JournalFile {
    /// The names in a directory, `nil` when it does not exist.
    static func names(in directory: URL) throws(JournalError) -> [String]? {
        guard exists(directory) else { return nil }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            // Removed between the check and the listing: as good as never there.
            guard exists(directory) else { return nil }
            throw .io(directory, operation: "list", reason: error.localizedDescription)
        }
    }

    /// Replaces `url` with `bytes` so that a reader sees the old file or the new one, never a
    /// mix: the bytes go to an owner-only temporary created exclusively beside it, which is
    /// then renamed over it. A process killed before the rename leaves only the temporary,
    /// named `.<name>.<random>.tmp`.
    static func replaceAtomically(_ url: URL, with bytes: [UInt8]) throws(JournalError) {
        let folder = url.deletingLastPathComponent()
        var temporary = url
        var descriptor: Int32 = -1
        for _ in 0..<8 {
            let suffix = String(UInt32.random(in: .min ... .max), radix: 36)
            temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(suffix).tmp", isDirectory: false)
            descriptor = openDescriptor(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: fileMode)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw .io(url, operation: "write", reason: lastErrorText()) }
        _ = fchmod(descriptor, fileMode)
        let failure = bytes.withUnsafeBytes { DescriptorWrite.all($0, to: descriptor) }
        _ = close(descriptor)
        if let failure {
            remove(temporary)
            throw .io(url, operation: "write", reason: String(cString: strerror(failure)))
        }
        let renamed = temporary.withUnsafeFileSystemRepresentation { from in
            url.withUnsafeFileSystemRepresentation { to in
                guard let from, let to else { return false }
                return rename(from, to) == 0
            }
        }
        guard renamed else {
            let reason = lastErrorText()
            remove(temporary)
            throw .io(url, operation: "replace", reason: reason)
        }
    }

    /// Takes a journal's writer lock to remove the run: while it is held no process can resume
    /// the run, and a live writer makes it fail.
    ///
    /// - Returns: The descriptor holding the lock, or `nil` when a live process holds it.
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the file cannot be opened.
    static func lockForRemoval(_ url: URL) throws(JournalError) -> Int32? {
        let descriptor = openDescriptor(url, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(url, operation: "open", reason: lastErrorText()) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let busy = errno == EWOULDBLOCK
            let reason = lastErrorText()
            _ = close(descriptor)
            if busy { return nil }
            throw .io(url, operation: "lock", reason: reason)
        }
        return descriptor
    }

    /// Removes a file, saying why not; a file already gone is not an error.
    static func removeFile(_ url: URL) throws(JournalError) {
        if unlinkFile(url) != 0 && errno != ENOENT {
            throw .io(url, operation: "remove", reason: lastErrorText())
        }
    }
}
