import Dispatch
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

/// ``RunStore/summaries()`` and the index behind it: right after damage, staleness and
/// concurrent writers, and never caching what depends on a live process.
struct RunIndexTests {
    static let scenario = Scenario<Int, Int>("Doubling") { chain in
        chain.then(Step { DoubleOp() }).then(Step { DoubleOp() })
    }

    /// A run that succeeded.
    @discardableResult
    func succeededRun(_ store: RunStore) throws -> RunID {
        let journal = try store.create(scenario: "Doubling")
        _ = run(Self.scenario, 1, environment: OpEnvironment(observer: journal))
        try journal.close()
        return journal.runID
    }

    /// A run that failed at its only step.
    @discardableResult
    func failedRun(_ store: RunStore) throws -> RunID {
        let ops = ScriptedOps([.failure(.broken)])
        let scenario = Scenario<Int, Int>("Failing") { chain in chain.then(Step { ops.make() }) }
        let journal = try store.create(scenario: "Failing")
        _ = run(scenario, 1, environment: OpEnvironment(observer: journal))
        try journal.close()
        return journal.runID
    }

    /// What a listing says, in a form tests compare whole.
    func listing(_ store: RunStore) throws -> [String] {
        try store.summaries().map { entry in
            switch entry.summary {
            case .success(let summary):
                "\(entry.id) \(summary.scenario) \(summary.status) \(summary.failedStep?.name ?? "-")"
            case .failure(let error):
                "\(entry.id) damaged \(error)"
            }
        }
    }

    /// What reading every journal says, the slow way the index must agree with.
    func journalsSay(_ store: RunStore) throws -> [String] {
        try store.runs().map { entry in
            switch entry.record {
            case .success(let record):
                "\(entry.id) \(record.scenario) \(record.status) \(record.failedStep?.name ?? "-")"
            case .failure(let error):
                "\(entry.id) damaged \(error)"
            }
        }
    }

    func indexURL(_ store: RunStore) -> URL { store.directory.appendingPathComponent("index.cache") }

    @Test func summariesAgreeWithTheJournalsFirstAndFromTheIndex() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            #expect(try store.summaries().isEmpty, "no runs directory yet")
            try succeededRun(store)
            try failedRun(store)
            try Data("not a journal\n".utf8).write(
                to: store.url(for: RunID(validating: "20250101-120000-000-1a2b3c4d")))
            let expected = try journalsSay(store)
            #expect(expected.count == 3)
            #expect(try listing(store) == expected)
            #expect(FileManager.default.fileExists(atPath: indexURL(store).path))
            #expect(try listing(store) == expected, "the same from the index")

            let summaries = try store.summaries().compactMap { try? $0.summary.get() }
            let records = try store.runs().compactMap { try? $0.record.get() }
            #expect(summaries.map(\.startedAt) == records.map(\.startedAt))
            #expect(summaries.map(\.finishedAt) == records.map(\.finishedAt))
            #expect(summaries.allSatisfy { $0.lastActivityAt >= ($0.finishedAt ?? .distantFuture) })
        }
    }

    /// A store's listing note is taken once, when a listing reads the journal, and then read
    /// from the index; an index line written without one (an older build's, or a store with no
    /// rule) still lists, without a note.
    @Test func aListingNoteIsKeptInTheIndexAndTakenOnce() throws {
        try withTemporaryDirectory { directory in
            let plain = RunStore(stateDirectory: directory)
            try failedRun(plain)
            #expect(try plain.summaries().map { try $0.summary.get().listingNote } == [nil])
            var store = RunStore(stateDirectory: directory)
            let taken = LockedState(0)
            store.listingNote = { record in
                taken.withLock { $0 += 1 }
                return "note: \(record.status)"
            }
            try failedRun(store)
            let notes = { try store.summaries().map { try $0.summary.get().listingNote } }
            #expect(try notes() == [nil, "note: failed"])
            #expect(try notes() == [nil, "note: failed"])
            #expect(taken.withLock { $0 } == 1, "the second listing reads no journal")
        }
    }

    @Test func anUnchangedJournalIsNotReadAgain() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let id = try succeededRun(store)
            #expect(try store.summaries().first.map { try $0.summary.get().status } == .succeeded)
            // Rewrite the journal in place to say "cancelled" (same size, same inode) and put its
            // modification time back: its stamp is unchanged, so the listing must come from the
            // index. (This is the one change the index cannot see, and no writer makes it.)
            let url = store.url(for: id)
            var info = stat()
            #expect(stat(url.path, &info) == 0)
            let text = try String(contentsOf: url, encoding: .utf8)
            let handle = try FileHandle(forWritingTo: url)
            try handle.write(
                contentsOf: Data(text.replacingOccurrences(of: "\"succeeded\"", with: "\"cancelled\"").utf8))
            try handle.close()
            #if canImport(Darwin)
                var times = [info.st_atimespec, info.st_mtimespec]
            #else
                var times = [info.st_atim, info.st_mtim]
            #endif
            #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
            #expect(try store.summaries().first.map { try $0.summary.get().status } == .succeeded)
            times[1].tv_sec += 1
            #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
            // Its stamp changed: it is read again, and its line checksums call the edit damage.
            let reread = try #require(try store.summaries().first)
            #expect(throws: JournalError.self) { try reread.summary.get() }
        }
    }

    @Test(arguments: ["garbage", "truncated", "empty", "wrong checksum", "another version"])
    func aDamagedIndexIsRebuilt(damage: String) throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            for _ in 0..<3 {
                try succeededRun(store)
                try failedRun(store)
            }
            let expected = try listing(store)
            let index = try Data(contentsOf: indexURL(store))
            let damaged: Data
            switch damage {
            case "garbage":
                var generator = SystemRandomNumberGenerator()
                damaged = Data((0..<index.count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            case "truncated":
                damaged = index.prefix(index.count * 2 / 3)
            case "empty":
                damaged = Data()
            case "wrong checksum":
                // Every run said to have succeeded: well formed, but not what was written.
                let text = String(decoding: index, as: UTF8.self)
                damaged = Data(text.replacingOccurrences(of: "\tfailed\t", with: "\tsucceeded\t").utf8)
            default:
                let text = String(decoding: index, as: UTF8.self)
                damaged = Data(text.replacingOccurrences(of: "\"version\":", with: "\"version\":99").utf8)
            }
            #expect(damaged != index)
            try damaged.write(to: indexURL(store))
            #expect(try listing(store) == expected)
            #expect(try Data(contentsOf: indexURL(store)) != damaged, "the index was rebuilt")
            #expect(try listing(store) == expected)
        }
    }

    @Test func namesWithTabsNewlinesAndBackslashesComeBackFromTheIndexIntact() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
            let id = RunID.make()
            let journal = [
                #"{"format":"operations.journal","version":1,"run":"\#(id)","scenario":"Tab\there\\back\nline é","createdAt":"2025-01-01T12:00:00.123Z"}"#,
                #"{"event":"runStarted","at":1735732800200}"#,
                #"{"event":"stepLaunched","at":1735732800201,"address":[{"index":0,"name":"Outer"},{"index":3,"name":"In\\ner\t"}],"attempt":1}"#,
            ]
            try Data((journal.joined(separator: "\n") + "\n").utf8).write(to: store.url(for: id))
            try Data("\n\n".utf8).write(to: store.url(for: RunID.make(at: Date(timeIntervalSince1970: 0))))
            let fresh = try store.summaries()
            let cached = try store.summaries()
            #expect(fresh.count == 2)
            for (first, second) in zip(fresh, cached) {
                #expect(first.id == second.id)
                switch (first.summary, second.summary) {
                case (.success(let read), .success(let cached)): #expect(read == cached)
                case (.failure(let read), .failure(let cached)): #expect(read == cached)
                default: Issue.record("\(first.summary) came back as \(second.summary)")
                }
            }
            let summary = try #require(try cached.last?.summary.get())
            #expect(summary.scenario == "Tab\there\\back\nline é")
            #expect(summary.failedStep == StepAddress((0, "Outer"), (3, "In\\ner\t")))
            #expect(summary.status == .interrupted)
            #expect(summary.createdAt == Date(timeIntervalSince1970: 1_735_732_800.123))
            #expect(summary.lastActivityAt == Date(timeIntervalSince1970: 1_735_732_800.201))
        }
    }

    @Test func staleEntriesAreReadAgainDroppedOrAdded() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let failed = try failedRun(store)
            let gone = try succeededRun(store)
            _ = try listing(store)

            // Appended after indexing: the failed run resumed and succeeded.
            let resumed = try store.resume(failed)
            let scenario = Scenario<Int, Int>("Failing") { chain in chain.then(Step { DoubleOp() }) }
            _ = run(scenario, 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            // Deleted, and added by another store (as another process would).
            try FileManager.default.removeItem(at: store.url(for: gone))
            let added = try succeededRun(RunStore(stateDirectory: directory))

            let summaries = try store.summaries().map { try $0.summary.get() }
            #expect(summaries.map(\.id) == [failed, added])
            #expect(summaries.map(\.status) == [.succeeded, .succeeded])
            #expect(summaries.first?.sessions == 2)
            #expect(try listing(store) == journalsSay(store))
        }
    }

    @Test func runningOrInterruptedIsDecidedByTheLockAtEachListing() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            var journal: ScenarioJournal? = try store.create(scenario: "Doubling")
            let id = try #require(journal?.runID)
            journal?.scenario(
                ScenarioEvent(
                    kind: .stepLaunched, scenario: "Doubling", address: StepAddress((0, "Double")), attempt: 1,
                    duration: nil, value: 1))
            try journal?.flush()
            let url = store.url(for: id)
            let stamp = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
            #expect(try store.summaries().map { try $0.summary.get().status } == [.running])
            #expect(try store.summaries().map { try $0.summary.get().status } == [.running], "from the index")
            // The process lets go without writing anything more: the journal is unchanged, the
            // index entry still valid, and the run is now interrupted.
            journal = nil
            #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == stamp)
            let summary = try #require(try store.summaries().first?.summary.get())
            #expect(summary.status == .interrupted)
            #expect(summary.failedStep?.name == "Double")
        }
    }

    @Test func listingsWhileThreadsCreateAndFinishRunsNeverLoseOrRepeatOne() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            for _ in 0..<20 { try succeededRun(store) }
            let finished = LockedState<Set<RunID>>(Set(try store.summaries().map(\.id)))
            let writers = 3
            let runsPerWriter = 15
            let listers = 3
            DispatchQueue.concurrentPerform(iterations: writers + listers) { worker in
                do {
                    if worker < writers {
                        for _ in 0..<runsPerWriter {
                            let id = try succeededRun(RunStore(stateDirectory: directory))
                            finished.withLock { _ = $0.insert(id) }
                        }
                    } else {
                        for _ in 0..<15 {
                            let mustList = finished.withLock { $0 }
                            let ids = try RunStore(stateDirectory: directory).summaries().map(\.id)
                            #expect(Set(ids).count == ids.count, "a run listed twice")
                            #expect(mustList.isSubset(of: Set(ids)), "a finished run missing from a listing")
                        }
                    }
                } catch {
                    Issue.record(error)
                }
            }
            let summaries = try store.summaries()
            #expect(summaries.count == 20 + writers * runsPerWriter)
            #expect(Set(summaries.map(\.id)) == finished.withLock { $0 })
            #expect(summaries.allSatisfy { (try? $0.summary.get().status) == .succeeded })
        }
    }

    @Test func aTemporaryLeftByAKilledWriterIsRemovedOnceOld() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            try succeededRun(store)
            let old = store.directory.appendingPathComponent(".index.cache.abc123.tmp")
            let fresh = store.directory.appendingPathComponent(".index.cache.def456.tmp")
            try Data("half an ind".utf8).write(to: old)
            try Data("half an ind".utf8).write(to: fresh)
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-3_600)], ofItemAtPath: old.path)
            _ = try store.summaries()
            #expect(!FileManager.default.fileExists(atPath: old.path))
            #expect(FileManager.default.fileExists(atPath: fresh.path), "perhaps another process is about to rename it")
            #expect(try store.summaries().count == 1)
        }
    }

    @Test func theIndexIsOwnerOnly() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            try succeededRun(store)
            _ = try store.summaries()
            let attributes = try FileManager.default.attributesOfItem(atPath: indexURL(store).path)
            #expect(attributes[.posixPermissions] as? Int == 0o600)
        }
    }
}
