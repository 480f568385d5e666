import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// ``RunStore/newestSummaries(_:)``: a page of a listing says of the runs it shows what the whole
/// listing says, each checked against its journal, and counts the others without reading them.
struct RunIndexPageTests {
    let runs = RunIndexTests()

    @Test func aPageIsTheNewestRunsOfTheWholeListingEachCheckedAgainstItsJournal() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            #expect(try store.newestSummaries(2).total == 0, "no runs directory yet")
            for _ in 0..<3 {
                try runs.succeededRun(store)
                try runs.failedRun(store)
            }
            // The newest failed run and the runs after it: runs made in one millisecond list in
            // the order of their ids' random part, not of their making.
            let listed = try store.summaries()
            let failed = try #require(listed.lastIndex { (try? $0.summary.get().status) == .failed })
            let newest = listed[failed].id
            let limit = listed.count - failed + 1

            // Changed since the index was made: that run resumed and succeeded.
            let resumed = try store.resume(newest)
            let scenario = Scenario<Int, Int>("Failing") { chain in chain.then(Step { DoubleOp() }) }
            _ = run(scenario, 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            // Added by another store after the index was made (as another process would).
            let added = try runs.failedRun(RunStore(stateDirectory: directory))

            let page = try store.newestSummaries(limit)
            let whole = try store.summaries()
            #expect(page.total == 7)
            #expect(page.total == whole.count)
            #expect(page.runs.map(\.id) == whole.suffix(limit).reversed().map(\.id))
            let shown = try page.runs.map { try $0.summary.get() }
            #expect(try shown == whole.suffix(limit).reversed().map { try $0.summary.get() })
            let changed = try #require(shown.first { $0.id == newest })
            #expect(changed.status == .succeeded)
            #expect(changed.sessions == 2)
            #expect(whole.contains { $0.id == added })
            #expect(page.reruns.isEmpty)
        }
    }
}
