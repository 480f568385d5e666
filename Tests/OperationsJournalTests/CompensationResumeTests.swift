import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// An undoing is journaled like any step, and a rerun goes on with it: it never tries the
/// failed step again, never undoes a step twice, and repeats a compensation left in doubt with
/// its key.
extension JournalTests {
    @Suite struct CompensationResumeTests {
        /// Runs the saga with `ledger` until it ends or hangs, then closes the journal as a
        /// dying process would.
        private func runUntilItStops(_ ledger: EffectLedger, _ store: RunStore) throws -> RunID {
            let journal = try store.create(scenario: "Saga")
            let box = FinishBox<Int>()
            saga(ledger).launch(OpContext(1, environment: OpEnvironment(observer: journal)), onFinish: box.onFinish)
            try journal.close()
            return journal.runID
        }

        private func rerun(_ runID: RunID, _ store: RunStore, _ ledger: EffectLedger) throws
            -> Result<Int, any Error>?
        {
            let resumed = try store.resume(runID)
            let result = run(saga(ledger), 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            return result
        }

        @Test func theJournalRecordsTheUndoingAndTheStepThatStartedIt() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let runID = try runUntilItStops(EffectLedger(["Confirm": [.fail(.broken)]]), store)
                let record = try store.load(runID)
                #expect(record.status == .failed)
                #expect(record.failedStep == StepAddress((2, "Confirm")), "the failed step, not a compensation")
                #expect(record.error?.stepPath == ["Confirm"])
                let undone = record.steps.filter(\.address.isCompensation)
                #expect(undone.map(\.address.description) == ["1.Charge/undo.Refund", "0.Reserve/undo.Release"])
                #expect(undone.allSatisfy { $0.outcome == .succeeded && $0.purity == .sideEffects })
                let events = try eventNames(in: store.url(for: runID))
                #expect(events.contains("compensating"))
                let compensating = try #require(events.firstIndex(of: "compensating"))
                let firstUndo = try #require(
                    try journalLines(store.url(for: runID)).dropFirst().firstIndex {
                        ($0["address"] as? [[String: Any]])?.last?["index"] as? Int == -1
                    })
                #expect(compensating + 1 < firstUndo, "the undoing is on disk before its first compensation")
            }
        }

        @Test func aRunKilledWhileUndoingGoesOnUndoingWhenRerun() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let first = EffectLedger(["Confirm": [.fail(.broken)], "Release": [.hang]])
                let runID = try runUntilItStops(first, store)
                #expect(first.names == ["Reserve", "Charge", "Confirm", "Refund", "Release"])
                let releaseKey = try #require(first.launches.last?.key)
                #expect(try store.load(runID).status == .interrupted)

                let second = EffectLedger(["Confirm": [.fail(.broken)]])
                let result = try rerun(runID, store, second)
                #expect(
                    second.names == ["Release"],
                    "the failed step is not tried again; Refund finished and is not repeated")
                #expect(second.launches.first?.key == releaseKey, "the release in doubt repeats its request")
                let failure = try #require(result?.failure as? StepFailure)
                #expect(failure.step == "Confirm")
                #expect("\(failure)".contains("broken"))

                let record = try store.load(runID)
                #expect(record.status == .failed)
                #expect(record.failedStep == StepAddress((2, "Confirm")))
                #expect(record.error?.type == "TestError")
            }
        }

        @Test func rerunningAnUndoneRunUndoesNothingTwice() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let runID = try runUntilItStops(EffectLedger(["Confirm": [.fail(.broken)]]), store)
                let again = EffectLedger()
                #expect(throws: JournalError.alreadyUndone(store.url(for: runID), undone: ["Charge", "Reserve"])) {
                    _ = try rerun(runID, store, again)
                }
                #expect(again.names.isEmpty, "an undone run is over: nothing is launched")
            }
        }

        @Test func aCompensationLeftUndoneIsJournaledAndTriedAgainByARerun() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let runID = try runUntilItStops(
                    EffectLedger(["Confirm": [.fail(.broken)], "Release": [.fail(.broken)]]), store)
                let record = try store.load(runID)
                #expect(record.status == .failed)
                #expect(record.error?.description.contains("left undone: Reserve (Release failed: broken)") == true)

                let again = EffectLedger()
                let result = try rerun(runID, store, again)
                #expect(again.names == ["Release"], "only what was left undone is tried again")
                #expect((result?.failure as? StepFailure)?.step == "Confirm")
            }
        }
    }
}
