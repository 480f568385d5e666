import Foundation
import OperationsJournal
import OperationsTestSupport
import Testing

@testable import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ``DraftFile``: a draft is owner-only and locked from the moment it is handed out, so a tidier
/// never takes it for abandoned; a discarded one leaves nothing.
struct DraftFileTests {
    @Test func aDraftIsOwnerOnlyLockedAndGoneWhenDiscarded() throws {
        try withTemporaryDirectory { directory in
            let final = directory.appendingPathComponent("auth-token.json")
            let draft = try DraftFile.create(of: final)
            let name = draft.url.lastPathComponent
            #expect(DraftFile.finalName(ofDraft: name) == "auth-token.json", "\(name)")
            var status = stat()
            #expect(stat(draft.url.path, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600)
            #expect(DraftFile.removeAbandoned(in: directory) { _ in true }.isEmpty, "its writer holds it")
            #expect(FileManager.default.fileExists(atPath: draft.url.path))
            DraftFile.discard(draft)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test func aDraftWhoseWriterLetGoIsRemoved() throws {
        try withTemporaryDirectory { directory in
            let draft = try DraftFile.create(of: directory.appendingPathComponent("auth-token.json"))
            close(draft.descriptor)  // what a killed process's descriptors do
            #expect(
                DraftFile.removeAbandoned(in: directory) { $0 == "auth-token.json" } == [draft.url.lastPathComponent])
        }
    }
}
