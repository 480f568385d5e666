import Checkout
import Foundation
import Operations
import OperationsDiagrams
import OperationsTesting
import Testing

/// The committed diagram of a checkout that checks the stock and prices the order at once must
/// be what the code draws today: `Diagrams/Checkout/CheckoutScenario.parallel.*` in the
/// repository.
@Suite struct ParallelDiagramTests {
    @Test func theCommittedParallelDiagramIsWhatTheCodeDraws() throws {
        try CommittedDiagram.check(
            try Self.paidCheckout(), named: "CheckoutScenario.parallel", suite: "ParallelDiagramTests")
    }

    @Test func theStockCheckAndThePricingAreBranchesOfOneParFrame() throws {
        let trace = try Self.paidCheckout()
        let plantUML = try DiagramFormat.plantuml.render(trace)
        let frame = try #require(plantUML.range(of: "par PriceAndStock"))
        let branch = try #require(plantUML.range(of: "else CheckStockOp", range: frame.upperBound..<plantUML.endIndex))
        #expect(plantUML[frame.upperBound..<branch.lowerBound].contains("PriceOrderOp"))
        #expect(plantUML[branch.upperBound...].contains("CheckStockOp"))
        let mermaid = try DiagramFormat.mermaid.render(trace)
        #expect(mermaid.contains("par PriceAndStock") && mermaid.contains("and CheckStockOp"))
        let text = try DiagramFormat.unicode.render(trace)
        // The text drawing gives each step a section, saying where it sits.
        #expect(text.contains("CheckStockOp in par [PriceAndStock]"))
        #expect(text.contains("PriceOrderOp in par [PriceAndStock]"))
    }

    /// A traced checkout with a coupon, paid and confirmed.
    static func paidCheckout() throws -> Trace {
        let tracer = InMemoryTracer()
        let store = Store()
        var context = OpContext(
            CheckoutRequest(cartID: Store.sampleCart.id, card: "tok_visa", coupon: "SAVE5"),
            // Counted keys: the notes show them, and the committed bytes must not change.
            environment: OpEnvironment(makeIdempotencyKey: IdempotencyKey.sequence()))
        context.trace = .root(tracer, caller: .caller("Caller"))
        let confirmation = try CheckoutFactory(store: store).checkoutScenario.launchAndWait(context)
        #expect(confirmation.amount == Store.sampleCart.subtotal - 500)
        return tracer.trace
    }
}
