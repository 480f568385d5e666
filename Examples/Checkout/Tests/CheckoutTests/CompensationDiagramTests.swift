import Checkout
import Foundation
import Operations
import OperationsDiagrams
import OperationsTesting
import Testing

/// The committed diagram of a checkout undone after a declined card must be what the code
/// draws today: `Diagrams/Checkout/CheckoutScenario.compensation.*` in the repository.
@Suite struct CompensationDiagramTests {
    @Test func theCommittedCompensationDiagramIsWhatTheCodeDraws() throws {
        try CommittedDiagram.check(
            try Self.declinedCheckout(), named: "CheckoutScenario.compensation", suite: "CompensationDiagramTests")
    }

    @Test func theUndoingIsAFrameNamedCompensationAfterTheDecline() throws {
        let plantUML = try DiagramFormat.plantuml.render(try Self.declinedCheckout())
        let decline = try #require(plantUML.range(of: "declined"))
        let frame = try #require(plantUML.range(of: "group compensation"))
        #expect(decline.lowerBound < frame.lowerBound)
        #expect(plantUML[frame.upperBound...].contains("ReleaseStockOp"))
    }

    /// A traced checkout whose card is declined with no other card: the reservation is released.
    static func declinedCheckout() throws -> Trace {
        let tracer = InMemoryTracer()
        let store = Store(faults: Store.Faults(declinedCards: ["tok_declined"]))
        var context = OpContext(
            CheckoutRequest(cartID: Store.sampleCart.id, card: "tok_declined"),
            // Counted keys: the notes show them, and the committed bytes must not change.
            environment: OpEnvironment(makeIdempotencyKey: IdempotencyKey.sequence()))
        context.trace = .root(tracer, caller: .caller("Caller"))
        #expect(throws: StepFailure.self) { try CheckoutFactory(store: store).checkoutScenario.launchAndWait(context) }
        #expect(store.heldReservations.isEmpty)
        return tracer.trace
    }
}
