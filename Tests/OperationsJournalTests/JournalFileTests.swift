import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

extension JournalTests {
    @Suite struct JournalFileTests {
        private func permissions(_ url: URL) throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
        }

        @Test func journalsAreOwnerOnlyAndTheirDirectoriesToo() throws {
            try withTemporaryDirectory { directory in
                let stateDirectory = directory.appendingPathComponent("state/opctl", isDirectory: true)
                let store = RunStore(stateDirectory: stateDirectory)
                let journal = try store.create(scenario: "Secret")
                try journal.close()
                #expect(try permissions(journal.url) == 0o600)
                #expect(try permissions(store.directory) == 0o700)
                #expect(try permissions(stateDirectory) == 0o700)
                #expect(try permissions(stateDirectory.deletingLastPathComponent()) == 0o700)

                // Resuming keeps the mode.
                let resumed = try store.resume(journal.runID)
                try resumed.close()
                #expect(try permissions(journal.url) == 0o600)
            }
        }

        @Test func aNewJournalAppearsWithItsHeaderLockedAndLeavesNoTemporaryBehind() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "S")
                // Under its run's name from the first instant: a header line, and the lock.
                let text = try String(contentsOf: journal.url, encoding: .utf8)
                #expect(text.hasPrefix("{\"format\":\"operations.journal\""))
                #expect(text.hasSuffix("}\n"))
                #expect(try store.load(journal.runID).status == .running)
                try journal.close()
                let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
                #expect(names.filter { $0.hasSuffix(".tmp") }.isEmpty, "\(names)")
                #expect(try permissions(journal.url) == 0o600)
            }
        }

        @Test func aDraftLeftByAKilledCreateIsNotARun() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                _ = try store.create(scenario: "S")
                // What a process killed between creating the draft and linking it leaves.
                let id = "20250101-120000-000-1a2b3c4d"
                try Data().write(to: store.directory.appendingPathComponent(".\(id).jsonl.0badf00d.tmp"))
                let runs = try store.runs()
                #expect(runs.count == 1)
                #expect(runs.allSatisfy { (try? $0.record.get()) != nil }, "no run is listed as damaged")
            }
        }

        @Test func anExistingFileIsNeverOverwritten() throws {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("taken.jsonl")
                try Data("keep me\n".utf8).write(to: url)
                #expect(
                    throws: JournalError.io(url, operation: "create", reason: "a file with that name already exists")
                ) {
                    try ScenarioJournal.create(at: url, scenario: "S")
                }
                #expect(try String(contentsOf: url, encoding: .utf8) == "keep me\n")
            }
        }

        @Test func durableModeSyncsOncePerCompletedStepAndAtTheEndNotPerEvent() throws {
            try withTemporaryDirectory { directory in
                let syncs = SyncCounter()
                let flaky = ScriptedOps([.failure(.flaky)])
                let scenario = Scenario<Int, String>("Durable") { chain in
                    chain.then(Step { DoubleOp() })
                        .then(Step("Flaky", flaky.make).retrying(.transient(maxAttempts: 2, backoff: .immediate)))
                        .then(Step { DescribeOp() })
                }
                let journal = try RunStore(stateDirectory: directory).create(
                    scenario: "Durable", durability: syncs.durability)
                #expect(syncs.count == 1)  // the header, so the file never survives a crash empty
                _ = run(scenario, 1, environment: OpEnvironment(observer: journal))
                try journal.close()

                let events = try eventNames(in: journal.url)
                #expect(events.count == 10)
                // Header + three completed steps + the run's end; the retried attempt's failure
                // and the launches are written but not synced, and closing has nothing new.
                #expect(syncs.count == 1 + 3 + 1)
            }
        }

        @Test func bufferedModeWritesCompletedStepsWithoutClosing() throws {
            try withTemporaryDirectory { directory in
                let parked = ParkedCompletion()
                let scenario = Scenario<Int, Int>("Buffered") { chain in
                    chain.then(Step { DoubleOp() }).then(Step("Waiting") { ManualOp(handOver: parked.park) })
                }
                let journal = try RunStore(stateDirectory: directory).create(scenario: "Buffered")
                scenario.launch(OpContext(1, environment: OpEnvironment(observer: journal))) { _ in }
                // No flush: a completed step is on disk as soon as it completes (a killed
                // process keeps it); the launch of the step in flight may still be in memory.
                #expect(try eventNames(in: journal.url) == ["runStarted", "stepLaunched", "stepSucceeded"])
                parked.finish(with: 0)
                try journal.close()
            }
        }

        @Test func eventsAfterCloseAreIgnored() throws {
            try withTemporaryDirectory { directory in
                let journal = try RunStore(stateDirectory: directory).create(scenario: "Closed")
                try journal.close()
                try journal.close()
                _ = run(
                    Scenario<Int, Int>("Closed") { $0.then(Step { DoubleOp() }) }, 1,
                    environment: OpEnvironment(observer: journal))
                #expect(try eventNames(in: journal.url).isEmpty)
            }
        }
    }
}
