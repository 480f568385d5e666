import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// A parallel step is journaled per branch: a rerun replays the branches that finished and
/// launches only the others, each with its own key.
extension JournalTests {
    @Suite struct ParallelResumeTests {
        private func scenario(_ ledger: EffectLedger) -> Scenario<Int, Int> {
            Scenario("Fan") { chain in
                chain
                    .then(ledger.step("Before"))
                    .parallel("Three", ledger.step("A"), ledger.step("B"), ledger.step("C"))
                    .map { a, b, c in a + b + c }
            }
        }

        @Test func aRerunReplaysTheFinishedBranchesAndLaunchesOnlyTheOthers() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let first = EffectLedger(["B": [.hang]])
                let journal = try store.create(scenario: "Fan")
                scenario(first).launch(OpContext(1, environment: OpEnvironment(observer: journal))) { _ in }
                try journal.close()
                #expect(first.names == ["Before", "A", "B", "C"])
                let keyOfB = try #require(first.launches.first { $0.name == "B" }?.key)

                let record = try store.load(journal.runID)
                #expect(record.status == .interrupted)
                #expect(record.step(at: StepAddress((1, "Three"), (1, "B")))?.isInDoubt == true)

                let second = EffectLedger()
                let resumed = try store.resume(journal.runID)
                let result = run(
                    scenario(second), 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
                try resumed.close()
                #expect(result?.success == 9)
                #expect(second.names == ["B"], "Before, A and C finished and are replayed")
                #expect(second.launches.first?.key == keyOfB, "the branch in doubt repeats its request")
            }
        }

        @Test func checkAgreesWithTheRerun() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: scenario(EffectLedger()))
                scenario(EffectLedger(["C": [.hang]])).launch(
                    OpContext(1, environment: OpEnvironment(observer: journal))
                ) { _ in }
                try journal.close()
                let record = try store.load(journal.runID)
                #expect(throws: Never.self) { try record.checkResumable(by: scenario(EffectLedger()).shape) }
            }
        }
    }
}
