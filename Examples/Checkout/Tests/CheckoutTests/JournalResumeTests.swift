import Checkout
import Foundation
import Operations
import OperationsJournal
import OperationsTesting
import Testing

@Suite struct JournalResumeTests {
    @Test func aRunFailedAtConfirmationResumesWithoutChargingAgain() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        // One store for both runs: the service outlives the process that failed.
        let store = Store(faults: Store.Faults(confirmFailures: 1))
        let scenario = CheckoutFactory(store: store).checkoutScenario
        let request = CheckoutRequest(cartID: "cart-1", card: "tok_visa", coupon: "SAVE5")
        let runs = RunStore(stateDirectory: directory)

        let journal = try runs.create(scenario: scenario, input: request)
        await #expect(throws: StepFailure.self) {
            try await scenario.launchAndAwait(OpContext(request, environment: OpEnvironment(observer: journal)))
        }
        try journal.close()
        #expect(try runs.load(journal.runID).failedStep?.name == "ConfirmOrderOp")
        #expect(store.chargeRequests.count == 1)

        let resumed = try runs.resume(journal.runID, scenario: scenario)
        let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
        let confirmation = try await scenario.launchAndAwait(OpContext(request, environment: environment))
        try resumed.close()

        #expect(store.chargeRequests.count == 1, "PayOp was replayed from the journal, not launched")
        #expect(store.charges.count == 1)
        #expect(confirmation == Confirmation(orderNumber: "order-1", amount: 2900, chargeID: "ch-1"))
        #expect(try runs.load(journal.runID).status == .succeeded)
    }
}
