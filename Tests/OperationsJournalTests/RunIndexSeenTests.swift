import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// The listing of a run directory skipped while its modification time says nothing was created,
/// removed or renamed since the last listing, and never when that time could hide a new journal.
///
/// A journal is added and the directory's time then set back to what the last listing saw, as
/// if the file system had not moved it: a listing that is skipped does not find it, one that
/// lists does. The directory's times are set, never waited for.
struct RunIndexSeenTests {
    let runs = RunIndexTests()

    func setModified(_ store: RunStore, seconds: TimeInterval) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: store.directory.path)
    }

    /// A store of one run, listed at a directory time of `seconds` since 1970.
    func listedStore(in directory: URL, at seconds: TimeInterval) throws -> RunStore {
        let store = RunStore(stateDirectory: directory)
        try runs.succeededRun(store)
        _ = try store.summaries()  // writes the index, and creates the seen record
        try setModified(store, seconds: seconds)
        #expect(try store.summaries().count == 1)  // lists at that time, and vouches for it unless racy
        return store
    }

    @Test func anUnchangedDirectoryIsNotListed() throws {
        try withTemporaryDirectory { directory in
            let store = try listedStore(in: directory, at: 1_700_000_000)
            try runs.succeededRun(store)
            try setModified(store, seconds: 1_700_000_000)
            #expect(try store.summaries().count == 1, "the index's names, not the directory's")
            #expect(try store.reruns(of: RunID(validating: "20250101-120000-000-1a2b3c4d")).isEmpty)
            #expect(try store.newestSummaries(20).total == 1)
        }
    }

    @Test func aJournalAddedAfterTheIndexWasWrittenIsListed() throws {
        try withTemporaryDirectory { directory in
            let store = try listedStore(in: directory, at: 1_700_000_000)
            try runs.succeededRun(store)
            try setModified(store, seconds: 1_700_000_001)
            #expect(try store.summaries().count == 2)
            #expect(try store.newestSummaries(20).total == 2)
            try setModified(store, seconds: 1_700_000_002)
            #expect(try store.newestSummaries(20).total == 2)
        }
    }

    /// A listing that began within the file system's granularity of the directory's time could
    /// have missed a name created in the same tick, which leaves the time as it was.
    @Test func aListingInTheSameTickAsTheDirectoryTimeIsNotTrusted() throws {
        try withTemporaryDirectory { directory in
            let tick = (Date().timeIntervalSince1970 + 1).rounded(.down)
            let store = try listedStore(in: directory, at: tick)
            try runs.succeededRun(store)
            try setModified(store, seconds: tick)
            #expect(try store.summaries().count == 2)
        }
    }
}
