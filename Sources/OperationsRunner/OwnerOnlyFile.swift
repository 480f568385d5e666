public import Foundation
import Operations
import OperationsJournal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file atomically and owner-only: the bytes go to a fresh `O_EXCL` temporary (0600)
/// in the same folder, which is then renamed over the target. Foundation's atomic writes leave
/// world-readable `.dat.nosync*` temporaries behind when the process is killed mid-write; this
/// one's temporary is hidden, owner-only and removed on every failure path. Public for a
/// program's own files beside its runs, such as the settings a rerun reads back.
public enum OwnerOnlyFile {
    /// Writes `data` to `url`, replacing any file there.
    /// - Throws: ``CLIError/message(_:)`` naming the file and the system's reason.
    public static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<8 {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
            temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(suffix).tmp").path
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw failure(url, errno) }
        let written = data.withUnsafeBytes { DescriptorWrite.all($0, to: descriptor) == nil }
        let code = errno
        close(descriptor)
        guard written else {
            unlink(temporary)
            throw failure(url, code)
        }
        guard rename(temporary, url.path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(url, code)
        }
    }

    private static func failure(_ url: URL, _ code: Int32) -> CLIError {
        CLIError.message("cannot write \(url.path): \(String(cString: strerror(code)))")
    }
}
