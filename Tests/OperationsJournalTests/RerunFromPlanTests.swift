import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// What `rerun --from` will do again is known before anything is written: the steps with side
/// effects launched anew, those the old run left in doubt, and a refusal when a step before the
/// one to rerun from was undone.
extension JournalTests {
    @Suite struct RerunFromPlanTests {
        /// Reserve (undone by Release) → Charge → Confirm, all with side effects.
        private func checkout(_ ledger: EffectLedger) -> Scenario<Int, Int> {
            Scenario("Checkout") { chain in
                chain
                    .then(ledger.step("Reserve").compensated(by: ledger.step("Release")))
                    .then(Step("Price") { DoubleOp() })
                    .then(ledger.step("Charge"))
                    .then(ledger.step("Confirm"))
            }
        }

        private func runUntilItStops(_ ledger: EffectLedger, _ store: RunStore) throws -> RunID {
            let journal = try store.create(scenario: checkout(EffectLedger()))
            checkout(ledger).launch(OpContext(1, environment: OpEnvironment(observer: journal))) { _ in }
            try journal.close()
            return journal.runID
        }

        @Test func theStepsWithSideEffectsFromTheStepOnAreListedAndThoseInDoubtNamed() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let runID = try runUntilItStops(EffectLedger(["Charge": [.hang]]), store)
                let record = try store.load(runID)
                let shape = checkout(EffectLedger()).shape
                let fromPrice = try record.rerunPlan(from: StepAddress((1, "Price")), shape: shape)
                #expect(fromPrice.relaunched == [StepAddress((2, "Charge")), StepAddress((3, "Confirm"))])
                #expect(fromPrice.inDoubt == [StepAddress((2, "Charge"))], "the charge may have happened")
                let fromConfirm = try record.rerunPlan(from: StepAddress((3, "Confirm")), shape: shape)
                #expect(fromConfirm.relaunched == [StepAddress((3, "Confirm"))])
                #expect(fromConfirm.inDoubt.isEmpty)
            }
        }

        @Test func aRerunFromAfterAnUndoneStepIsRefusedBeforeAnythingIsWritten() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let runID = try runUntilItStops(EffectLedger(["Charge": [.fail(.broken)]]), store)
                let shape = checkout(EffectLedger()).shape
                #expect(try store.load(runID).isUndone)
                let before = try FileManager.default.contentsOfDirectory(atPath: store.directory.path)
                #expect(throws: RerunFromError.self) {
                    try store.rerun(runID, from: StepAddress((2, "Charge")), scenario: shape)
                }
                do {
                    _ = try store.rerun(runID, from: StepAddress((2, "Charge")), scenario: shape)
                } catch {
                    #expect(
                        "\(error)"
                            == "run \(runID) undid Reserve before Charge, so a rerun from Charge would go on as if it "
                            + "still held; rerun from Reserve or an earlier step")
                }
                #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == before)
                // From the undone step itself, the reservation is made anew.
                let plan = try store.load(runID).rerunPlan(from: StepAddress((0, "Reserve")), shape: shape)
                #expect(plan.relaunched.map(\.name) == ["Reserve", "Charge", "Confirm"])
                #expect(throws: Never.self) {
                    try store.rerun(runID, from: StepAddress((0, "Reserve")), scenario: shape)
                }
            }
        }
    }
}
