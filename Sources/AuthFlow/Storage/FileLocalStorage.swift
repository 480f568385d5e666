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
/// - The phone token of the stateful sign-in variant lives in a second file next to it
///   (``phoneTokenFileURL``, `{"phoneToken": …}`), kept by the same rules.
public struct FileLocalStorage: LocalStorage {
    /// The token file.
    public let fileURL: URL
    /// The phone token's file, next to the auth token's.
    public let phoneTokenFileURL: URL

    /// Opens a storage for a file; nothing is created until the first save.
    ///
    /// Opening removes the drafts of the two files a killed process left, which may hold a
    /// live token (``removeAbandonedDrafts()``).
    ///
    /// - Parameters:
    ///   - fileURL: The token file, e.g. `~/.config/opctl/auth-token.json`.
    ///   - phoneTokenFileURL: The phone token's file; by default the token file's name with
    ///     `.phone` before its extension, in the same directory (`auth-token.phone.json`).
    public init(fileURL: URL, phoneTokenFileURL: URL? = nil) {
        self.fileURL = fileURL
        self.phoneTokenFileURL = phoneTokenFileURL ?? Self.phoneTokenFile(beside: fileURL)
        removeAbandonedDrafts()
    }

    /// Removes the drafts of the token files a process killed while saving left: hidden files
    /// named exactly `.<file name>.<random>.tmp` beside each file. A draft its writer still
    /// holds (its lock) is kept, so a save under way in another process is never disturbed.
    ///
    /// - Returns: The names of the files removed.
    @discardableResult
    public func removeAbandonedDrafts() -> [String] {
        var removed: [String] = []
        for file in Set([fileURL.standardizedFileURL, phoneTokenFileURL.standardizedFileURL]) {
            let name = file.lastPathComponent
            removed += DraftFile.removeAbandoned(in: file.deletingLastPathComponent()) { $0 == name }
        }
        return removed.sorted()
    }

    /// Atomically replaces the token file.
    public func saveAuthToken(_ token: AuthToken) throws(LocalStorageError) {
        try replace(fileURL, with: token)
    }

    /// Reads the token file; a missing file is no token.
    public func loadAuthToken() throws(LocalStorageError) -> AuthToken? {
        try read(AuthToken.self, from: fileURL)
    }

    /// Removes the token file; a missing file is fine.
    public func clearAuthToken() throws(LocalStorageError) {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else {
            throw .unreadable(path: fileURL.path, reason: systemError().reason)
        }
    }

    /// Atomically replaces the phone token's file.
    public func savePhoneToken(_ token: PhoneToken) throws(LocalStorageError) {
        try replace(phoneTokenFileURL, with: StoredPhoneToken(phoneToken: token))
    }

    /// Reads the phone token's file; a missing file is no token.
    public func loadPhoneToken() throws(LocalStorageError) -> PhoneToken? {
        try read(StoredPhoneToken.self, from: phoneTokenFileURL)?.phoneToken
    }

    /// Removes the phone token's file; a missing file is fine.
    public func clearPhoneToken() throws(LocalStorageError) {
        guard unlink(phoneTokenFileURL.path) == 0 || errno == ENOENT else {
            throw .unreadable(path: phoneTokenFileURL.path, reason: systemError().reason)
        }
    }

    private static func phoneTokenFile(beside fileURL: URL) -> URL {
        let name = fileURL.deletingPathExtension().lastPathComponent
        let pathExtension = fileURL.pathExtension.isEmpty ? "json" : fileURL.pathExtension
        return fileURL.deletingLastPathComponent().appendingPathComponent("\(name).phone.\(pathExtension)")
    }

    /// Encodes `value` and renames a synced, locked, owner-only draft over `file`; on any
    /// failure the draft is removed before the error is thrown.
    private func replace(_ file: URL, with value: some Encodable) throws(LocalStorageError) {
        let data = try TokenEncoding.encode(value, for: file.path)
        let directory = file.deletingLastPathComponent()
        try createDirectory(directory, for: file)
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

    /// Decodes `file`; a missing file is `nil`.
    private func read<Value: Decodable>(_ type: Value.Type, from file: URL) throws(LocalStorageError) -> Value? {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            if !FileManager.default.fileExists(atPath: file.path) { return nil }
            throw .unreadable(path: file.path, reason: "permission denied or not a file")
        }
        return try TokenEncoding.decode(Value.self, from: data, at: file.path)
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

/// The phone token file's content: a JSON object rather than a bare string, so the file can grow.
private struct StoredPhoneToken: Codable {
    let phoneToken: PhoneToken
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
