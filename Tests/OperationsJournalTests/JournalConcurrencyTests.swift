import Dispatch
import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

extension JournalTests {
    @Suite struct JournalConcurrencyTests {
        @Test func runsWrittenAtOnceInOneDirectoryStaySeparate() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let scenario = Scenario<Int, String>("Parallel") { chain in
                    chain.then(Step { DoubleOp() }).then(Step { DoubleOp() }).then(Step { DescribeOp() })
                }
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    do {
                        let journal = try store.create(scenario: "Parallel")
                        for _ in 0..<50 {
                            _ = run(scenario, index, environment: OpEnvironment(observer: journal))
                        }
                        try journal.close()
                    } catch {
                        Issue.record(error)
                    }
                }
                let entries = try store.runs()
                #expect(Set(entries.map(\.id)).count == 2)
                for entry in entries {
                    let record = try entry.record.get()
                    #expect(record.status == .succeeded)
                    #expect(record.steps.count == 3)
                    #expect(record.steps.allSatisfy { $0.attempts.count == 50 })
                }
            }
        }

        @Test func eventsFromManyThreadsLeaveEveryLineIntact() throws {
            try withTemporaryDirectory { directory in
                let journal = try RunStore(stateDirectory: directory).create(scenario: "Threads")
                let threads = 8
                let stepsPerThread = 400
                // Long names make the buffer cross its write threshold many times.
                let padding = String(repeating: "x", count: 200)
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    for step in 0..<stepsPerThread {
                        let address = StepAddress((thread, "T\(thread)"), (step, "S\(step)\(padding)"))
                        for kind in [ScenarioEvent.Kind.stepLaunched, .stepSucceeded] {
                            journal.scenario(
                                ScenarioEvent(
                                    kind: kind, scenario: "Threads", address: address, attempt: 1, duration: .zero,
                                    value: "thread \(thread) step \(step)"))
                        }
                    }
                }
                try journal.flush()
                let lines = try journalLines(journal.url)
                #expect(lines.count == 1 + threads * stepsPerThread * 2)
                let record = try ScenarioJournal.load(journal.url)
                #expect(record.steps.count == threads * stepsPerThread)
                #expect(
                    record.steps.allSatisfy { $0.outcome == .succeeded && $0.attempts.map(\.outcome) == [.succeeded] })
                let replay = JournalReplay(record)
                #expect(
                    try replay.recordedOutput(at: StepAddress((3, "T3"), (7, "S7\(padding)")), as: String.self)
                        == "thread 3 step 7")
                try journal.close()
            }
        }

        @Test func listingSortsRunsAndReportsUnreadableOnesWithoutFailing() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let first = try store.create(scenario: "A")
                try first.close()
                let second = try store.create(scenario: "B")
                try second.close()
                let damagedID = try RunID(validating: "00000000-000000-000-deadbeef")
                try Data([0xFF, 0x00, 0x13, 0x37]).write(to: store.url(for: damagedID))
                try Data("not a run".utf8).write(to: store.directory.appendingPathComponent("notes.txt"))

                let entries = try store.runs()
                #expect(entries.map(\.id) == [damagedID] + [first.runID, second.runID].sorted())
                guard case .failure(.notAJournal) = entries[0].record else {
                    Issue.record("the damaged run was listed as \(entries[0].record)")
                    return
                }
                #expect(try entries.dropFirst().map { try $0.record.get().status } == [.interrupted, .interrupted])
                #expect(try RunStore(stateDirectory: directory.appendingPathComponent("none")).runs().isEmpty)
            }
        }

        @Test func runIDsSortByCreationTime() throws {
            let early = RunID.make(at: Date(timeIntervalSince1970: 1_735_732_800.123), random: 0xBEEF)
            let late = RunID.make(at: Date(timeIntervalSince1970: 1_735_732_801), random: 0)
            #expect(early.rawValue == "20250101-120000-123-0000beef")
            #expect(early < late)
            #expect(try RunID(validating: early.rawValue) == early)
            #expect(RunID.make() != RunID.make())
        }
    }
}
