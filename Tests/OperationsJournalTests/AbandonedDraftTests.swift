import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 26: the drafts a killed process leaves under `runs/.drafts` (`.<id>.jsonl.<random>.tmp`,
/// holding the run's input, a phone number) are removed when the store is next opened and by
/// ``RunStore/removeAbandonedDrafts()``, and never one a live process holds. Issue 36: they are
/// made in a folder of their own, so opening a store lists the drafts and not every run; those an
/// older version left beside the journals go with the next listing.
struct AbandonedDraftTests {
    static let orphan = ".20250101-120000-000-1a2b3c4d.jsonl.0badf00d.tmp"
    static let decimal = ".20250101-120000-000-5e6f7a8b.jsonl.3735928559.tmp"

    /// Where a store in `directory` makes its drafts.
    private func drafts(_ directory: URL) -> URL {
        directory.appendingPathComponent("runs/.drafts")
    }

    private func names(_ directory: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
    }

    private func leave(_ name: String, in directory: URL, _ text: String = #"{"input":"+79991234567"}"#) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    /// Opens `url` and takes its lock, as a live writer holds its draft; closing lets go.
    private func holdLock(_ url: URL) throws -> Int32 {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        return descriptor
    }

    @Test func openingTheStoreRemovesTheDraftsAKilledProcessLeft() throws {
        try withTemporaryDirectory { directory in
            let runs = drafts(directory)
            for name in [Self.orphan, Self.decimal] { try leave(name, in: runs) }
            let store = RunStore(stateDirectory: directory)
            #expect(store.removedDrafts == [Self.orphan, Self.decimal].sorted())
            #expect(try names(runs).isEmpty)
        }
    }

    @Test func aDraftALiveProcessHoldsIsKept() throws {
        try withTemporaryDirectory { directory in
            let runs = drafts(directory)
            try leave(Self.orphan, in: runs)
            let held = try holdLock(runs.appendingPathComponent(Self.orphan))
            #expect(RunStore(stateDirectory: directory).removedDrafts.isEmpty)
            #expect(try names(runs) == [Self.orphan], "its writer is alive")
            close(held)
            // Its writer gone, the next look removes it: prune asks again of an open store.
            let store = RunStore(stateDirectory: directory)
            #expect(store.removedDrafts == [Self.orphan])
            try leave(Self.decimal, in: runs)
            #expect(store.removeAbandonedDrafts() == [Self.decimal])
            #expect(try names(runs).isEmpty)
        }
    }

    @Test func aRunBeingCreatedKeepsItsDraftAndItsJournal() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let journal = try store.create(scenario: "Checkout")
            // A second name of the journal, as a process killed between linking and unlinking
            // its draft leaves it: the same file, held by the live run's lock.
            let second = drafts(directory).appendingPathComponent(".\(journal.runID).jsonl.1a2b.tmp")
            try FileManager.default.linkItem(at: journal.url, to: second)
            #expect(RunStore(stateDirectory: directory).removedDrafts.isEmpty, "the run is live")
            try journal.close()
            #expect(RunStore(stateDirectory: directory).removedDrafts == [second.lastPathComponent])
            #expect(try store.load(journal.runID).scenario == "Checkout", "the journal itself is untouched")
        }
    }

    @Test(arguments: [
        ".20250101-120000-000-1a2b3c4d.jsonl.0badf00g.tmp",  // not hexadecimal
        ".20250101-120000-000-1a2b3c4d.jsonl.0123456789a.tmp",  // eleven digits
        ".20250101-120000-000-1a2b3c4d.jsonl..tmp",  // no random part
        "20250101-120000-000-1a2b3c4d.jsonl.0badf00d.tmp",  // not hidden
        ".20250101-120000-000-1a2b3c4d.jsonl.0badf00d.tmp.bak",  // another suffix
        ".20250101-120000-000-1a2b3c4d.trace.jsonl.0badf00d.tmp",  // another file of the run
        ".not a run id.jsonl.0badf00d.tmp",
        ".index.cache.0badf00d.tmp",
    ])
    func onlyTheExactDraftNameIsRemoved(_ name: String) throws {
        try withTemporaryDirectory { directory in
            let runs = drafts(directory)
            try leave(name, in: runs)
            #expect(RunStore(stateDirectory: directory).removedDrafts.isEmpty)
            #expect(try names(runs).contains(name))
        }
    }

    @Test func aLinkOrFolderWithADraftsNameIsKept() throws {
        try withTemporaryDirectory { directory in
            let runs = drafts(directory)
            let target = directory.appendingPathComponent("elsewhere.txt")
            try leave("elsewhere.txt", in: directory)
            try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: runs.appendingPathComponent(Self.orphan), withDestinationURL: target)
            try FileManager.default.createDirectory(
                at: runs.appendingPathComponent(Self.decimal), withIntermediateDirectories: false)
            #expect(RunStore(stateDirectory: directory).removedDrafts.isEmpty)
            #expect(try names(runs) == [Self.orphan, Self.decimal])
            #expect(FileManager.default.fileExists(atPath: target.path))
        }
    }

    @Test func aRunIsDraftedInTheDraftsFolderAndNothingIsLeftBesideTheJournals() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let journal = try store.create(scenario: "Checkout")
            try journal.close()
            #expect(try names(store.directory).filter { !$0.hasPrefix(journal.runID.rawValue) } == [".drafts"])
            #expect(try names(store.directory).contains("\(journal.runID).jsonl"))
            #expect(try names(drafts(directory)).isEmpty)
        }
    }

    @Test func aDraftAnOlderVersionLeftBesideTheJournalsGoesWithTheNextListing() throws {
        try withTemporaryDirectory { directory in
            let runs = directory.appendingPathComponent("runs")
            try leave(Self.orphan, in: runs)
            let store = RunStore(stateDirectory: directory)
            #expect(store.removedDrafts.isEmpty, "opening looks only in the drafts folder")
            #expect(try names(runs).contains(Self.orphan))
            #expect(try store.summaries().isEmpty)
            #expect(try !names(runs).contains(Self.orphan), "the listing removed it")
            try leave(Self.decimal, in: runs)
            #expect(store.removeAbandonedDrafts() == [Self.decimal])
            #expect(try names(runs).subtracting(["index.cache"]).isEmpty)
        }
    }
}
