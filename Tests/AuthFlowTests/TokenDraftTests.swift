import AuthFlow
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 26: a save of the token goes through a draft (`.auth-token.json.<random>.tmp`) that
/// holds a live access token. A failed save removes it; the drafts a killed process left are
/// removed when the storage is next opened, and never one a live process still writes.
struct TokenDraftTests {
    static let token = AuthToken("sim1.clear-token-value.a1f3", expiresAt: Date(timeIntervalSince1970: 1_900_000_000))

    private func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("authflow-drafts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory)
    }

    private func names(_ directory: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
    }

    /// What a process killed mid-save leaves: a draft with a clear token in it.
    private func leaveDraft(_ name: String, in directory: URL) throws {
        try Data(#"{"token":"sim1.clear-token-value.a1f3"}"#.utf8).write(to: directory.appendingPathComponent(name))
    }

    @Test func openingTheStorageRemovesTheDraftsOfItsFile() throws {
        try withTemporaryDirectory { directory in
            let drafts = [".auth-token.json.3735928559.tmp", ".auth-token.json.1a2b.tmp"]
            for name in drafts { try leaveDraft(name, in: directory) }
            let unrelated = [
                ".auth-token.json.backup.tmp", ".settings.json.1a2b.tmp", "auth-token.json.1a2b.tmp",
                ".auth-token.phone.json.7.tmp",
            ]
            for name in unrelated { try leaveDraft(name, in: directory) }

            let storage = FileLocalStorage(fileURL: directory.appendingPathComponent("auth-token.json"))
            #expect(try names(directory) == Set(unrelated), "only exact drafts of the storage's own files go")
            #expect(storage.removeAbandonedDrafts().isEmpty)
        }
    }

    @Test func aDraftALiveProcessHoldsIsKept() throws {
        try withTemporaryDirectory { directory in
            let name = ".auth-token.json.1a2b.tmp"
            try leaveDraft(name, in: directory)
            let held = open(directory.appendingPathComponent(name).path, O_RDONLY | O_CLOEXEC)
            try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
            let storage = FileLocalStorage(fileURL: directory.appendingPathComponent("auth-token.json"))
            #expect(try names(directory) == [name], "its writer is alive")
            close(held)
            #expect(storage.removeAbandonedDrafts() == [name])
            #expect(try names(directory).isEmpty)
        }
    }

    @Test func aSaveThatFailsLeavesNoDraft() throws {
        try withTemporaryDirectory { directory in
            // A folder where the file should be: the rename over it fails after the draft is written.
            let file = directory.appendingPathComponent("auth-token.json")
            try FileManager.default.createDirectory(
                at: file.appendingPathComponent("occupied"), withIntermediateDirectories: true)
            #expect(throws: LocalStorageError.self) {
                try FileLocalStorage(fileURL: file).saveAuthToken(Self.token)
            }
            #expect(try names(directory) == ["auth-token.json"], "the draft holding the token is gone")
        }
    }

    @Test func aSavedTokenIsOwnerOnlyAndLeavesNoDraft() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("auth-token.json")
            try FileLocalStorage(fileURL: file).saveAuthToken(Self.token)
            #expect(try names(directory) == ["auth-token.json"])
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }
}
