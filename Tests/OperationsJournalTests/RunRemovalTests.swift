import Dispatch
import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// ``RunStore/removeRuns(where:)``: removes what it picks with the run's files, and nothing a
/// live process writes.
struct RunRemovalTests {
    let index = RunIndexTests()

    func names(_ store: RunStore) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: store.directory.path)).subtracting([
            "index.cache", ".drafts",
        ])
    }

    @Test func removesPickedRunsWithTheirSiblingsAndNothingElse() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let failed = try index.failedRun(store)
            let succeeded = try index.succeededRun(store)
            for id in [failed, succeeded] {
                for name in ["\(id).trace.jsonl", "\(id).meta.json", ".\(id).meta.json.x1y2.tmp"] {
                    try Data("{}".utf8).write(to: store.directory.appendingPathComponent(name))
                }
            }
            try Data("mine".utf8).write(to: store.directory.appendingPathComponent("notes.txt"))
            let kept = try names(store).filter { $0.contains(succeeded.rawValue) || $0 == "notes.txt" }

            let report = try store.removeRuns { $0.status == .failed }
            #expect(report.removed.map(\.id) == [failed])
            #expect(report.removed.first?.status == .failed)
            #expect(report.inProgress.isEmpty)
            #expect(report.failures.isEmpty)
            #expect(try names(store) == kept)
            #expect(try store.summaries().map(\.id) == [succeeded])
        }
    }

    /// `prune` lists once and hands that listing to the removal: a run changed since is judged
    /// again under its lock, and one created since is not in the listing and stays.
    @Test func aListingMadeEarlierRemovesOnlyWhatItStillPicks() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            var journal: ScenarioJournal? = try store.create(scenario: "Doubling")
            let resumedLater = try #require(journal?.runID)
            journal = nil
            let failed = try index.failedRun(store)
            let listed = try store.summaries()
            try store.resume(resumedLater).close()
            let createdLater = try index.failedRun(store)

            let report = try store.removeRuns(among: listed) { $0.sessions == 1 }
            #expect(report.removed.map(\.id) == [failed])
            #expect(Set(try store.summaries().map(\.id)) == [resumedLater, createdLater])
        }
    }

    @Test func neverRemovesARunALiveProcessWrites() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let journal = try store.create(scenario: "Doubling")
            let finished = try index.succeededRun(store)
            let offered = LockedState<[RunStatus]>([])
            let report = try store.removeRuns { summary in
                offered.withLock { $0.append(summary.status) }
                return true
            }
            #expect(report.removed.map(\.id) == [finished])
            #expect(!offered.withLock { $0 }.contains(.running))
            #expect(try store.summaries().map(\.id) == [journal.runID])
            try journal.close()
        }
    }

    @Test func anUnfinishedRunWithoutItsProcessCanBeRemovedAsInterrupted() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            var journal: ScenarioJournal? = try store.create(scenario: "Doubling")
            let id = try #require(journal?.runID)
            journal = nil
            let report = try store.removeRuns { $0.status == .interrupted }
            #expect(report.removed.map(\.id) == [id])
            #expect(try store.summaries().isEmpty)
        }
    }

    @Test func removersRacingEachOtherRemoveEveryRunOnceAndFailNothing() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let ids = try Set((0..<40).map { _ in try index.succeededRun(store) })
            let reports = LockedState<[RunStore.RemovalReport]>([])
            DispatchQueue.concurrentPerform(iterations: 3) { _ in
                do {
                    let report = try RunStore(stateDirectory: directory).removeRuns { _ in true }
                    reports.withLock { $0.append(report) }
                } catch {
                    Issue.record(error)
                }
            }
            let removed = reports.withLock { $0 }.flatMap { $0.removed.map(\.id) }
            #expect(removed.count == ids.count, "each run is reported removed by exactly one remover")
            #expect(Set(removed) == ids)
            #expect(reports.withLock { $0 }.allSatisfy { $0.failures.isEmpty })
            #expect(try names(store).isEmpty)
        }
    }

    @Test func damagedJournalsAreNeverOffered() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            try index.succeededRun(store)
            let damaged = store.url(for: try RunID(validating: "20250101-120000-000-1a2b3c4d"))
            try Data("garbage".utf8).write(to: damaged)
            let report = try store.removeRuns { _ in true }
            #expect(report.removed.count == 1)
            #expect(FileManager.default.fileExists(atPath: damaged.path))
        }
    }
}
