import Checkout
import Foundation
import Operations
import OperationsDiagrams
import OperationsTesting
import Synchronization
import Testing

/// The committed diagram of a checkout whose payment settles after a wait must be what the code
/// draws today: `Diagrams/Checkout/CheckoutScenario.settlement.*` in the repository. It is the
/// committed picture of a durable wait: a note on the scenario's lifeline between two polls.
@Suite struct SettlementDiagramTests {
    @Test func theCommittedSettlementDiagramIsWhatTheCodeDraws() throws {
        try CommittedDiagram.check(
            try Self.settledCheckout(), named: "CheckoutScenario.settlement", suite: "SettlementDiagramTests")
    }

    @Test func theWaitIsANoteBetweenTheTwoPolls() throws {
        let plantUML = try DiagramFormat.plantuml.render(try Self.settledCheckout())
        let polls = plantUML.ranges(of: "CheckoutScenario -> SettlePaymentOp : launch")
        #expect(polls.count == 2, "polled twice: pending, then settled")
        let wait = try #require(plantUML.range(of: "SettlePaymentOp: wait 3 s"))
        #expect(polls.first.map { $0.upperBound < wait.lowerBound } == true)
        #expect(polls.last.map { wait.upperBound < $0.lowerBound } == true)
    }

    /// A traced checkout whose payment is pending at the first poll and settled at the second,
    /// driven on a test clock: the store answers inside each launch, so running the scheduler's
    /// work until the checkout finishes is the whole run.
    static func settledCheckout() throws -> Trace {
        let tracer = InMemoryTracer()
        let store = Store(faults: Store.Faults(pendingSettlementPolls: 1))
        let scheduler = TestScheduler()
        var context = OpContext(
            CheckoutRequest(cartID: Store.sampleCart.id, card: "tok_visa"),
            // Counted keys: the notes show them, and the committed bytes must not change.
            environment: OpEnvironment(scheduler: scheduler, makeIdempotencyKey: IdempotencyKey.sequence()))
        context.trace = .root(tracer, caller: .caller("Caller"))
        let finished = Finished()
        let scenario = CheckoutFactory(store: store, settlement: SettlementPolling(interval: .seconds(3), polls: 5))
            .checkoutScenario
        scenario.launch(context) { result in finished.result.withLock { $0 = result } }
        while finished.result.withLock({ $0 }) == nil, scheduler.runNext() {}
        let confirmation = try #require(finished.result.withLock { $0 }).get()
        #expect(confirmation.orderNumber == "order-1")
        #expect(scheduler.requestedDelays == [.seconds(3)])
        return tracer.trace
    }
}

/// Where the launch's finish lands.
private final class Finished: Sendable {
    let result = Mutex<Result<Checkout.Confirmation, any Error>?>(nil)
}
