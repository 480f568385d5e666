import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// Issue 10, part 9: a damaged line in the middle of a journal is named, skipped, and the run
/// resumes from the lines that are intact — except where the lost line could hide an attempt of
/// a step with side effects, which waits for the caller's explicit word.
extension JournalTests {
    @Suite struct DamagedJournalResumeTests {
        private func scenario(_ load: RecordingOps, _ charge: ScriptedOps) -> Scenario<Int, Int> {
            Scenario("Checkout") { chain in
                chain.then(Step("Load", load.make)).then(Step("Charge", charge.makeWithSideEffects))
            }
        }

        /// A run whose charge failed for good, with the line of Load's success damaged on disk.
        private func failedRunWithLoadsSuccessDamaged(_ store: RunStore) throws -> (RunID, line: Int) {
            let plan = scenario(RecordingOps(), ScriptedOps([.failure(.broken)]))
            let journal = try store.create(scenario: plan)
            #expect(run(plan, 1, environment: OpEnvironment(observer: journal))?.failure != nil)
            try journal.close()
            var lines = try String(contentsOf: journal.url, encoding: .utf8).split(separator: "\n").map(String.init)
            let index = try #require(lines.firstIndex { $0.contains("\"stepSucceeded\"") && $0.contains("Load") })
            lines[index] = lines[index].replacingOccurrences(of: "\"output\":2", with: "\"output\":9")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: journal.url)
            return (journal.runID, index + 1)
        }

        @Test func theDamagedLineIsNamedAndAStepWithSideEffectsWaitsForTheCallersWord() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (runID, line) = try failedRunWithLoadsSuccessDamaged(store)
                let record = try store.loadSkippingDamage(runID)
                #expect(record.damagedLines.map(\.line) == [line])
                #expect(record.damagedLines.first?.reason.contains("checksum") == true)

                // Issue 26: `check` and the resume take one decision, and give one reason.
                let stop = ResumeError.sideEffectsAfterDamage(step: StepAddress((1, "Charge")), lines: [line])
                let check = try #require(
                    try store.checkResumable(by: [scenario(RecordingOps(), ScriptedOps([])).shape]).first)
                #expect(check.verdict == .stranded(stop.description), "\(check)")
                #expect(stop.description.contains("damaged at line \(line)"))

                let before = try Data(contentsOf: store.url(for: runID))
                let load = RecordingOps()
                let charge = ScriptedOps([])
                #expect(throws: JournalError.resumeRefused(store.url(for: runID), stop)) {
                    try store.resume(runID, scenario: scenario(load, charge))
                }
                #expect(load.launches.isEmpty && charge.launchCount == 0, "refused before anything launched")
                #expect(try Data(contentsOf: store.url(for: runID)) == before, "and before anything was written")
            }
        }

        @Test func toldToRelaunchTheRunFinishesAndItsJournalReadsAgain() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (runID, _) = try failedRunWithLoadsSuccessDamaged(store)
                #expect(throws: JournalError.self) { try store.load(runID) }

                let charge = ScriptedOps([])
                let plan = scenario(RecordingOps(), charge)
                let resumed = try store.resume(runID, scenario: plan, relaunchingInDoubt: true)
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                #expect(run(plan, 1, environment: environment)?.success == 2)
                try resumed.close()
                #expect(charge.launchCount == 1)
                // The resume named the line it skipped: a plain read skips it too now.
                #expect(try store.load(runID).status == .succeeded)
            }
        }

        @Test func aPureRunResumesFromWhatIsIntactWithoutBeingTold() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let plan = Scenario<Int, Int>("Pure") { chain in
                    chain.then(Step("A", RecordingOps().make)).then(Step("B", ScriptedOps([.failure(.broken)]).make))
                }
                let journal = try store.create(scenario: plan)
                _ = run(plan, 1, environment: OpEnvironment(observer: journal))
                try journal.close()
                var bytes = Array(try Data(contentsOf: journal.url))
                let second = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
                bytes[second + 4] = 0xFF  // an invalid UTF-8 byte in line 2
                try Data(bytes).write(to: journal.url)

                let a = RecordingOps()
                let b = RecordingOps()
                let again = Scenario<Int, Int>("Pure") { $0.then(Step("A", a.make)).then(Step("B", b.make)) }
                let resumed = try store.resume(journal.runID, scenario: again)
                #expect(
                    run(again, 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))?.success == 3)
                try resumed.close()
                #expect(b.launches == [2])
            }
        }
    }
}
