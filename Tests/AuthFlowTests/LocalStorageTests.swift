import AuthFlow
import Foundation
import StatefulAuthFlow
import Testing

struct LocalStorageTests {
    static let token = AuthToken("sim1.clear-token-value.a1f3", expiresAt: Date(timeIntervalSince1970: 1_900_000_000))

    /// A fresh directory per test, removed afterwards.
    private func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("authflow-storage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    private func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test func fileRoundTrip() throws {
        try withTemporaryDirectory { directory in
            let storage = FileLocalStorage(fileURL: directory.appendingPathComponent("nested/auth-token.json"))
            #expect(try storage.loadAuthToken() == nil)
            try storage.saveAuthToken(Self.token)
            #expect(try storage.loadAuthToken() == Self.token)
            // A second instance over the same file stands in for the next launch.
            #expect(try FileLocalStorage(fileURL: storage.fileURL).loadAuthToken() == Self.token)
            try storage.clearAuthToken()
            #expect(try storage.loadAuthToken() == nil)
            try storage.clearAuthToken()
        }
    }

    @Test func fileIsOwnerOnlyAndDirectoryIsCreatedPrivate() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("nested/auth-token.json")
            try FileLocalStorage(fileURL: file).saveAuthToken(Self.token)
            #expect(try mode(file) == 0o600)
            #expect(try mode(file.deletingLastPathComponent()) == 0o700)
        }
    }

    @Test func saveReplacesAtomically() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("auth-token.json")
            let storage = FileLocalStorage(fileURL: file)
            try storage.saveAuthToken(Self.token)
            let firstInode = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
            let newer = AuthToken(
                "sim1.another-token-value.b2c4", expiresAt: Date(timeIntervalSince1970: 1_900_000_100))
            try storage.saveAuthToken(newer)
            let secondInode = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
            #expect(try storage.loadAuthToken() == newer)
            // A new inode: the file was renamed into place, not rewritten where readers could see half of it.
            #expect(firstInode != secondInode)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["auth-token.json"])
            #expect(try mode(file) == 0o600)
        }
    }

    @Test func damagedFileIsACorruptError() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("auth-token.json")
            try Data("{\"token\": 42".utf8).write(to: file)
            #expect(throws: LocalStorageError.corrupt(path: file.path)) {
                try FileLocalStorage(fileURL: file).loadAuthToken()
            }
        }
    }

    @Test func unwritableLocationIsAClearError() throws {
        try expectUnwritable(secret: Self.token.revealed, file: \.fileURL) { (storage) throws(LocalStorageError) in
            try storage.saveAuthToken(Self.token)
        }
    }

    /// Saving under a regular file fails as `.unwritable`, names the file it meant, and keeps
    /// the secret out of the message.
    private func expectUnwritable(
        secret: String, file: KeyPath<FileLocalStorage, URL>,
        save: (FileLocalStorage) throws(LocalStorageError) -> Void
    ) throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let blocker = directory.appendingPathComponent("a-file")
            try Data().write(to: blocker)
            let storage = FileLocalStorage(fileURL: blocker.appendingPathComponent("auth-token.json"))
            do throws(LocalStorageError) {
                try save(storage)
                Issue.record("saving under a regular file succeeded")
            } catch {
                guard case .unwritable(let path, _) = error else {
                    Issue.record("expected unwritable, got \(error)")
                    return
                }
                #expect(path == storage[keyPath: file].path)
                #expect(!error.description.contains(secret))
            }
        }
    }

    @Test func inMemoryRoundTrip() throws {
        let storage = InMemoryLocalStorage()
        #expect(try storage.loadAuthToken() == nil)
        try storage.saveAuthToken(Self.token)
        #expect(try storage.loadAuthToken() == Self.token)
        try storage.clearAuthToken()
        #expect(try storage.loadAuthToken() == nil)
        #expect(try InMemoryLocalStorage(token: Self.token).loadAuthToken() == Self.token)
    }

    // MARK: - Phone token (the stateful PhoneOp variant)

    @Test func inMemoryPhoneTokenRoundTrip() throws {
        let phoneToken = PhoneToken("sim1.clear-phone-token.c3d5")
        let store = InMemoryPhoneTokenStore()
        #expect(try store.loadPhoneToken() == nil)
        try store.savePhoneToken(phoneToken)
        #expect(try store.loadPhoneToken() == phoneToken)
        try store.clearPhoneToken()
        #expect(try store.loadPhoneToken() == nil)
        #expect(try InMemoryPhoneTokenStore(token: phoneToken).loadPhoneToken() == phoneToken)
    }
}
