import Foundation
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

@testable import OperationsJournal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 36: `check` and `prune` take what the index knows of a run instead of reading every
/// journal again, and say exactly what reading every journal says; the index stays right after
/// a prune, a rerun and a killed run.
struct RunIndexVerdictTests {
    let index = RunIndexTests()

    /// Reserve (undone by Release), then Charge, scripted by `ledger`.
    static func checkout(_ ledger: EffectLedger) -> Scenario<Int, Int> {
        Scenario("Checkout") { chain in
            chain.then(ledger.step("Reserve").compensated(by: ledger.step("Release"))).then(ledger.step("Charge"))
        }
    }

    /// A checkout whose charge failed for good, its reservation undone.
    @discardableResult
    func undoneRun(_ store: RunStore) throws -> RunID {
        let scenario = Self.checkout(EffectLedger(["Charge": [.fail(.broken)]]))
        let journal = try store.create(scenario: scenario)
        _ = run(scenario, 1, environment: OpEnvironment(observer: journal))
        try journal.close()
        return journal.runID
    }

    /// A run of `Doubling` killed during its first step: its launch written, then the process
    /// gone.
    @discardableResult
    func interruptedRun(_ store: RunStore) throws -> RunID {
        var journal: ScenarioJournal? = try store.create(scenario: RunIndexTests.scenario)
        let id = try #require(journal?.runID)
        journal?.scenario(
            ScenarioEvent(
                kind: .stepLaunched, scenario: "Doubling", address: StepAddress((0, "DoubleOp")), attempt: 1,
                duration: nil, value: 1))
        try journal?.flush()
        journal = nil
        return id
    }

    /// The verdicts of reading every journal as a resume reads it: what `check` said before it
    /// used the index.
    func verdictsReadingEveryJournal(_ store: RunStore, _ shapes: [ScenarioShape]) throws -> [String] {
        let byName = Dictionary(uniqueKeysWithValues: shapes.map { ($0.name, $0) })
        return try store.runs().map { entry in
            let record: Result<JournalRecord, JournalError>
            do throws(JournalError) {
                record = .success(try ScenarioJournal.loadSkippingDamage(store.url(for: entry.id)))
            } catch {
                record = .failure(error)
            }
            return ResumeCheck.check(RunStore.Entry(id: entry.id, record: record), against: byName).description
        }
    }

    /// A store with a run of every kind `check` tells apart.
    func storeOfEveryKind(_ directory: URL) throws -> RunStore {
        let store = RunStore(stateDirectory: directory)
        try index.succeededRun(store)
        try index.failedRun(store)
        try undoneRun(store)
        try interruptedRun(store)
        try Data("not a journal\n".utf8).write(to: store.url(for: RunID(validating: "20250101-120000-000-1a2b3c4d")))
        return store
    }

    var shapes: [ScenarioShape] { [RunIndexTests.scenario.shape, Self.checkout(EffectLedger()).shape] }

    @Test func checkGivesTheVerdictsOfReadingEveryJournalFreshAndFromTheIndex() throws {
        try withTemporaryDirectory { directory in
            let store = try storeOfEveryKind(directory)
            let expected = try verdictsReadingEveryJournal(store, shapes)
            #expect(expected.count == 5)
            #expect(expected.contains { $0.hasSuffix("undone (Reserve), nothing to resume") })
            #expect(try store.checkResumable(by: shapes).map(\.description) == expected, "building the index")
            #expect(try store.checkResumable(by: shapes).map(\.description) == expected, "from the index")
        }
    }

    @Test(arguments: ["succeeded", "undone"])
    func aFinishedRunIsJudgedFromTheIndexWithoutReadingItsJournal(kind: String) throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let id = kind == "succeeded" ? try index.succeededRun(store) : try undoneRun(store)
            let before = try store.checkResumable(by: shapes).map(\.verdict)
            #expect(before == [kind == "succeeded" ? .finished : .undone(["Reserve"])])
            // The journal's bytes replaced by as many spaces, its stamp put back: nothing a
            // writer does, so a verdict that still holds came from the index alone.
            try overwriteKeepingStamp(store.url(for: id))
            #expect(try store.checkResumable(by: shapes).map(\.verdict) == before)
        }
    }

    @Test func theIndexAgreesWithTheJournalsAfterAPruneARerunAndAKilledRun() throws {
        try withTemporaryDirectory { directory in
            let store = try storeOfEveryKind(directory)
            _ = try index.listing(store)
            let report = try store.removeRuns { $0.status == .succeeded }
            #expect(report.removed.count == 1)
            #expect(try index.listing(store) == index.journalsSay(store), "after the prune")

            // The failed run of "Failing", not the undone checkout (also failed): which of the two
            // lists first depends on their ids, made in the same millisecond.
            let failed = try #require(
                try store.summaries().first { listed in
                    guard let summary = try? listed.summary.get() else { return false }
                    return summary.status == .failed && summary.scenario == "Failing"
                }?.id)
            let resumed = try store.resume(failed)
            let fixed = Scenario<Int, Int>("Failing") { chain in chain.then(Step { DoubleOp() }) }
            _ = run(fixed, 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            #expect(try index.listing(store) == index.journalsSay(store), "after the rerun")

            try interruptedRun(store)
            #expect(try index.listing(store) == index.journalsSay(store), "after a killed run")
            #expect(
                try store.checkResumable(by: shapes).map(\.description) == verdictsReadingEveryJournal(store, shapes))
        }
    }

    @Test func aRunThatChangedSinceTheListingIsJudgedAgainBeforeItIsRemoved() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let killed = try interruptedRun(store)
            let other = try interruptedRun(store)
            _ = try index.listing(store)
            // While prune decides, another process resumes the killed run and finishes it.
            let resumedOnce = LockedState(false)
            let report = try store.removeRuns { summary in
                if summary.id == killed, !resumedOnce.withLock({ $0 }) {
                    resumedOnce.withLock { $0 = true }
                    do {
                        let journal = try store.resume(killed)
                        let scenario = RunIndexTests.scenario
                        _ = run(scenario, 1, environment: OpEnvironment(observer: journal, replay: journal.replay))
                        try journal.close()
                    } catch {
                        Issue.record(error)
                    }
                }
                return summary.status == .interrupted
            }
            #expect(report.removed.map(\.id) == [other])
            #expect(try store.summaries().map { try $0.summary.get().status } == [.succeeded])
        }
    }

    /// Replaces the file's bytes with as many spaces and restores its modification time, so its
    /// stamp (size, time, inode) is what it was.
    private func overwriteKeepingStamp(_ url: URL) throws {
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        let size = try Data(contentsOf: url).count
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: " "), count: size))
        try handle.close()
        #if canImport(Darwin)
            var times = [info.st_atimespec, info.st_mtimespec]
        #else
            var times = [info.st_atim, info.st_mtim]
        #endif
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
    }
}
