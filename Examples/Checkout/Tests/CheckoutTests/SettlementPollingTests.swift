import Checkout
import Operations
import OperationsTesting
import Testing

/// A payment that settles later is polled, with durable waits between polls, before the order
/// is confirmed.
@Suite struct SettlementPollingTests {
    let request = CheckoutRequest(cartID: "cart-1", card: "tok_visa")

    @Test func thePaymentIsPolledUntilItSettlesThenConfirmed() async throws {
        let store = Store(faults: Store.Faults(pendingSettlementPolls: 2))
        let scheduler = TestScheduler()
        let recorder = ScenarioRecorder()
        let scenario = CheckoutFactory(store: store, settlement: SettlementPolling(interval: .seconds(3), polls: 5))
            .checkoutScenario
        async let launched = scenario.launchAndAwait(
            OpContext(request, environment: OpEnvironment(scheduler: scheduler, observer: recorder)))
        try await scheduler.waitForPendingWork()
        scheduler.advance(by: .seconds(3))
        try await scheduler.waitForPendingWork()
        #expect(store.confirmations.isEmpty, "not confirmed while pending")
        scheduler.advance(by: .seconds(3))
        let confirmation = try await launched
        #expect(confirmation.orderNumber == "order-1")
        #expect(store.charges.count == 1, "polling charges nothing")
        #expect(scheduler.requestedDelays == [.seconds(3), .seconds(3)])
        #expect(recorder.stepLines.filter { $0 == "SettlePaymentOp launched #1" }.count == 3)
    }

    @Test func aPaymentThatNeverSettlesFailsWithATypedError() async throws {
        let store = Store(faults: Store.Faults(pendingSettlementPolls: 100))
        let scheduler = TestScheduler()
        let scenario = CheckoutFactory(store: store, settlement: SettlementPolling(interval: .seconds(1), polls: 2))
            .checkoutScenario
        async let launched = scenario.launchAndAwait(
            OpContext(request, environment: OpEnvironment(scheduler: scheduler)))
        try await scheduler.waitForPendingWork()
        scheduler.advance(by: .seconds(1))
        var cause: (any Error)?
        do { _ = try await launched } catch { cause = (error as? StepFailure)?.error }
        #expect(cause as? WaitError == .stillNotDone(step: "SettlePaymentOp", polls: 2))
        #expect(store.confirmations.isEmpty)
    }

    @Test func withoutAPollingTheCheckoutIsUnchanged() {
        let plain = CheckoutFactory(store: Store()).checkoutScenario.shape
        #expect(!plain.steps.map(\.name).contains("SettlePaymentOp"))
        let polled = CheckoutFactory(store: Store(), settlement: SettlementPolling()).checkoutScenario.shape
        #expect(polled.steps.map(\.name).contains("SettlePaymentOp"))
    }
}
