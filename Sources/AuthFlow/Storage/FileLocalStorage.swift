public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``LocalStorage`` in one JSON file, readable by its owner only.
///
/// - The file is created with mode `0600`; a missing parent directory is created with `0700`.
/// - A save writes a temporary file in the same directory, syncs it and renames it over the old
///   one, so a crash leaves either the old token or the new one, never half of either.
/// - The file holds the clear token (`{"token": …, "expiresAt": …}`): that is its purpose, and
///   why its mode matters.
public struct FileLocalStorage: LocalStorage {
    /// The token file.
    public let fileURL: URL

    /// Creates a storage for a file; nothing is touched until the first call.
    ///
    /// - Parameter fileURL: The token file, e.g. `~/.config/opctl/auth-token.json`.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// Atomically replaces the token file.
    public func saveAuthToken(_ token: AuthToken) throws(LocalStorageError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let data: Data
        do {
            data = try encoder.encode(token)
        } catch {
            throw .unwritable(path: fileURL.path, reason: "the token could not be encoded")
        }
        let directory = fileURL.deletingLastPathComponent()
        try createDirectory(directory)
        let temporary = directory.appendingPathComponent(
            ".\(fileURL.lastPathComponent).\(UInt32.random(in: .min ... .max)).tmp")
        do {
            try write(data, to: temporary.path)
            guard rename(temporary.path, fileURL.path) == 0 else { throw systemError() }
        } catch {
            unlink(temporary.path)
            throw .unwritable(path: fileURL.path, reason: error.reason)
        }
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
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(AuthToken.self, from: data)
        } catch {
            throw .corrupt(path: fileURL.path)
        }
    }

    /// Removes the token file; a missing file is fine.
    public func clearAuthToken() throws(LocalStorageError) {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else {
            throw .unreadable(path: fileURL.path, reason: systemError().reason)
        }
    }

    private func createDirectory(_ directory: URL) throws(LocalStorageError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unwritable(path: fileURL.path, reason: "cannot create the directory \(directory.path)")
        }
    }

    private func write(_ data: Data, to path: String) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw systemError() }
        defer { close(fd) }
        // The umask can only narrow 0600, but be explicit: the mode is the file's whole protection.
        guard fchmod(fd, 0o600) == 0 else { throw systemError() }
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
