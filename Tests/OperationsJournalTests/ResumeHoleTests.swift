import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// The two rules no test used to guard (found by planting each defect): an uncertain outcome,
/// transient or not, never starts an undoing; and a step in doubt that a rerun's chain hands
/// another value is another request, with another key — decided from the journal, in a second
/// process's reading of it.
extension JournalTests {
    @Suite struct ResumeHoleTests {
        /// An app's own error for a charge whose answer was lost: not worth retrying at once (the
        /// app wants a person to look), but the charge may have happened.
        struct ChargeOutcomeUnknown: Error, OutcomeUncertainError, RetryableError {
            var outcomeIsUncertain: Bool { true }
            var isTransient: Bool { false }
        }

        /// Reserve (undone by Release) → Charge, which ends as `ledger` or `outcome` says.
        private func reserveThenCharge(_ ledger: EffectLedger, charge: Step<Int, Int>) -> Scenario<Int, Int> {
            Scenario("Checkout") { chain in
                chain
                    .then(ledger.step("Reserve").compensated(by: ledger.step("Release")))
                    .then(charge)
            }
        }

        /// A charge that ends with the engine's own timeout, as a client that gave up waiting
        /// for its answer reports it.
        final class TimedOutChargeOp: Op {
            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
                Completion(retaining: self, context: context, onFinish: onFinish).fail(OpError.timedOut)
            }
        }

        @Test func theEnginesTimeoutAfterACompensatedStepUndoesNothingAndTheRunStaysResumable() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let ledger = EffectLedger()
                let scenario = reserveThenCharge(ledger, charge: Step("Charge") { TimedOutChargeOp() })
                let journal = try store.create(scenario: scenario.shape)
                let result = run(scenario, 1, environment: OpEnvironment(observer: journal))
                try journal.close()
                let failure = try #require(result?.failure as? StepFailure)
                #expect(failure.rootCause as? OpError == .timedOut)
                #expect(ledger.names == ["Reserve"], "the charge may have happened: nothing is released")
                let record = try store.load(journal.runID)
                #expect(!record.isUndone)
                #expect(try store.checkResumable(by: [scenario.shape]).map(\.verdict) == [.resumable])
            }
        }

        @Test func anAppsUncertainErrorThatIsNotTransientUndoesNothing() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let ledger = EffectLedger()
                let charge = Step("Charge") { UncertainChargeOp() }
                let scenario = reserveThenCharge(ledger, charge: charge)
                let journal = try store.create(scenario: scenario.shape)
                let result = run(scenario, 1, environment: OpEnvironment(observer: journal))
                try journal.close()
                let failure = try #require(result?.failure as? StepFailure)
                #expect(failure.rootCause is ChargeOutcomeUnknown)
                #expect(ledger.names == ["Reserve"], "Release is not launched")
                #expect(!(try store.load(journal.runID).isUndone))
                #expect(try store.checkResumable(by: [scenario.shape]).map(\.verdict) == [.resumable])
            }
        }

        /// A charge whose answer is always lost.
        final class UncertainChargeOp: Op {
            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
                Completion(retaining: self, context: context, onFinish: onFinish).fail(ChargeOutcomeUnknown())
            }
        }

        /// What the cart totals to in this process: the step before the charge is idempotent, so
        /// a rerun launches it again and the chain may hand the charge another amount.
        final class Cart: Sendable {
            let total: Int
            init(total: Int) { self.total = total }
            func make() -> TotalOp { TotalOp(cart: self) }
        }

        final class TotalOp: IdempotentOp {
            private let cart: Cart
            init(cart: Cart) { self.cart = cart }
            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
                Completion(retaining: self, context: context, onFinish: onFinish).succeed(cart.total)
            }
        }

        private func totalThenCharge(_ cart: Cart, _ ledger: EffectLedger) -> Scenario<Int, Int> {
            Scenario("Pay") { chain in
                chain.then(Step("Total", cart.make)).then(ledger.step("Charge"))
            }
        }

        /// Leaves the charge of `total` in doubt in one process; returns the run and its key.
        private func chargeInDoubt(_ store: RunStore, total: Int) throws -> (RunID, IdempotencyKey) {
            let ledger = EffectLedger(["Charge": [.hang]])
            let scenario = totalThenCharge(Cart(total: total), ledger)
            let journal = try store.create(scenario: scenario.shape)
            scenario.launch(OpContext(0, environment: OpEnvironment(observer: journal))) { _ in }
            try journal.close()
            return (journal.runID, try #require(ledger.launches.last?.key))
        }

        /// Reruns the run in a fresh reading of its journal with the cart at `total`.
        private func rerun(_ runID: RunID, _ store: RunStore, total: Int) throws -> EffectLedger.Launch {
            let ledger = EffectLedger()
            let scenario = totalThenCharge(Cart(total: total), ledger)
            let resumed = try store.resume(runID, scenario: scenario.shape)
            _ = run(scenario, 0, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            return try #require(ledger.launches.first)
        }

        @Test func aStepInDoubtHandedTheSameValueKeepsItsKeyAndAnotherValueGetsANewOne() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (same, key) = try chargeInDoubt(store, total: 40)
                let repeated = try rerun(same, store, total: 40)
                #expect(repeated.input == 40)
                #expect(repeated.key == key, "the same amount is the same request: the backend answers the repeat")

                let (changed, oldKey) = try chargeInDoubt(store, total: 40)
                let fresh = try rerun(changed, store, total: 55)
                #expect(fresh.input == 55)
                #expect(fresh.key != nil)
                #expect(
                    fresh.key != oldKey,
                    "another amount is another request: under the old key a backend would answer the old charge")
            }
        }
    }
}
