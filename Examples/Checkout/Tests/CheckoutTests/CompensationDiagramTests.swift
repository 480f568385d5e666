import Checkout
import Foundation
import Operations
import OperationsDiagrams
import OperationsTesting
import Testing

/// The committed diagram of a checkout undone after a declined card must be what the code
/// draws today: `Diagrams/Checkout/CheckoutScenario.compensation.*` in the repository.
@Suite struct CompensationDiagramTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Diagrams/Checkout")
    static let name = "CheckoutScenario.compensation"
    /// Set to write the files instead of comparing them.
    static let refresh = "CHECKOUT_REFRESH_DIAGRAMS"

    @Test func theCommittedCompensationDiagramIsWhatTheCodeDraws() throws {
        let trace = try Self.declinedCheckout()
        let refreshing = ProcessInfo.processInfo.environment[Self.refresh] != nil
        for format in DiagramFormat.allCases {
            let file = Self.directory.appendingPathComponent("\(Self.name).\(format.fileExtension)")
            let drawn = try format.render(trace, width: 100)
            if refreshing {
                try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
                try Data(drawn.utf8).write(to: file)
            }
            let committed = try? String(contentsOf: file, encoding: .utf8)
            let refreshCommand = "\(Self.refresh)=1 swift test --filter CompensationDiagramTests (in Examples/Checkout)"
            #expect(
                committed == drawn,
                "Diagrams/Checkout/\(file.lastPathComponent) differs from what the code draws; refresh with: \(refreshCommand)"
            )
        }
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
