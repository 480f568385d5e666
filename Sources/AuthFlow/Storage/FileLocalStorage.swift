public import Foundation
import Operations
import OperationsJournal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``LocalStorage`` in one JSON file, readable by its owner only.
///
/// - The file is created with mode `0600`; a missing parent directory is created with `0700`.
/// - A save writes a draft in the same directory (`.auth-token.json.<random>.tmp`, mode `0600`,
///   locked while it is written), syncs it and renames it over the old file, so a crash leaves
///   either the old token or the new one, never half of either. A save that fails removes its
///   draft; the drafts a killed process left (a live access token in each) are removed when a
///   storage of the file is next created (``removeAbandonedDrafts()``), never one a live
///   process still writes.
/// - The file holds the clear token (`{"token": …, "expiresAt": …}`): that is its purpose, and
///   why its mode matters.
public struct FileLocalStorage: LocalStorage {
    /// The token file.
    public let fileURL: URL

    /// Opens a storage for a file; nothing is created until the first save.
    ///
    /// Opening removes the drafts a killed process left, which may hold a live token
    /// (``removeAbandonedDrafts()``).
    ///
    /// - Parameter fileURL: The token file, e.g. `~/.config/opctl/auth-token.json`.
    public init(fileURL: URL) {
        self.fileURL = fileURL
        removeAbandonedDrafts()
    }

    /// Removes the drafts of the token file a process killed while saving left: hidden files
    /// named exactly `.<file name>.<random>.tmp` beside it. A draft its writer still holds (its
    /// lock) is kept, so a save under way in another process is never disturbed.
    ///
    /// - Returns: The names of the files removed.
    @discardableResult
    public func removeAbandonedDrafts() -> [String] {
        let name = fileURL.lastPathComponent
        return DraftFile.removeAbandoned(in: fileURL.deletingLastPathComponent()) { $0 == name }.sorted()
    }

    /// Atomically replaces the token file: renames a synced, locked, owner-only draft over it;
    /// on any failure the draft is removed before the error is thrown.
    public func saveAuthToken(_ token: AuthToken) throws(LocalStorageError) {
        let (file, data) = (fileURL, try TokenEncoding.encode(token, for: fileURL.path))
        try createDirectory(file.deletingLastPathComponent(), for: file)
        let draft: DraftFile.Handle
        do {
            draft = try DraftFile.create(of: file)
        } catch {
            throw .unwritable(path: file.path, reason: error.reason)
        }
        do {
            try write(data, to: draft.descriptor)
            guard rename(draft.url.path, file.path) == 0 else { throw systemError() }
        } catch {
            DraftFile.discard(draft)
            throw .unwritable(path: file.path, reason: error.reason)
        }
        // Closed once renamed: until then its lock tells a tidier the draft is live.
        close(draft.descriptor)
    }

    /// Reads the token file; a missing file is no token.
    public func loadAuthToken() throws(LocalStorageError) -> AuthToken? {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return nil }
            throw .unreadable(path: fileURL.path, reason: "permission denied or not a file")
        }
        return try TokenEncoding.decode(AuthToken.self, from: data, at: fileURL.path)
    }

    /// Removes the token file; a missing file is fine.
    public func clearAuthToken() throws(LocalStorageError) {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else {
            throw .unreadable(path: fileURL.path, reason: systemError().reason)
        }
    }

    private func createDirectory(_ directory: URL, for file: URL) throws(LocalStorageError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unwritable(path: file.path, reason: "cannot create the directory \(directory.path)")
        }
    }

    /// Writes all of `data` to the draft and syncs it.
    private func write(_ data: Data, to fd: Int32) throws(SystemError) {
        var written = 0
        let failed = data.withUnsafeBytes { raw -> Bool in
            while written < raw.count {
                let count = systemWrite(fd, raw.baseAddress.map { $0 + written }, raw.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                written += count
            }
            return false
        }
        if failed { throw systemError() }
        guard fsync(fd) == 0 else { throw systemError() }
    }
}

/// An `errno` with its message.
private struct SystemError: Error {
    let reason: String
}

private func systemError() -> SystemError {
    SystemError(reason: String(cString: strerror(errno)))
}

extension Error {
    fileprivate var reason: String {
        (self as? SystemError)?.reason ?? "unknown error"
    }
}

// `write` would resolve to the storage's own method inside it; name the system call explicitly.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
    #else
        Darwin.write(fd, buffer, count)
    #endif
}
