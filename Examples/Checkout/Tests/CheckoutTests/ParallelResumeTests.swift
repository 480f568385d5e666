import Checkout
import Foundation
import Operations
import OperationsJournal
import OperationsTesting
import Synchronization
import Testing

/// A checkout whose stock check could not reach the store is rerun from its journal: the
/// pricing branch, which finished, is replayed; only the stock check is launched again.
@Suite struct ParallelResumeTests {
    /// Fails the first `stock` request before it reaches the store, and counts them all.
    final class FlakyStockLink: StoreLink {
        private let stockRequests = Atomic<Int>(0)
        var stockRequestCount: Int { stockRequests.load(ordering: .acquiring) }

        func fault(for request: String) -> StoreLinkFault? {
            guard request == "stock" else { return nil }
            return stockRequests.add(1, ordering: .acquiringAndReleasing).newValue == 1 ? .unreachable : nil
        }

        func acted(_ request: String) {}
    }

    @Test func aRerunReplaysThePricingAndChecksTheStockAgain() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = FlakyStockLink()
        let scenario = CheckoutFactory(store: Store(link: link)).checkoutScenario
        let request = CheckoutRequest(cartID: "cart-1", card: "tok_visa", coupon: "SAVE5")
        let runs = RunStore(stateDirectory: directory)

        let journal = try runs.create(scenario: scenario, input: request)
        let error = await #expect(throws: StepFailure.self) {
            try await scenario.launchAndAwait(OpContext(request, environment: OpEnvironment(observer: journal)))
        }
        try journal.close()
        #expect(error?.stepPath == ["PriceAndStock", "CheckStockOp"], "the failure names the branch")

        let resumed = try runs.resume(journal.runID, scenario: scenario)
        let recorder = ScenarioRecorder()
        let environment = OpEnvironment(observer: ObserverGroup([resumed, recorder]), replay: resumed.replay)
        let confirmation = try await scenario.launchAndAwait(OpContext(request, environment: environment))
        try resumed.close()

        #expect(confirmation.amount == 2900)
        #expect(link.stockRequestCount == 2)
        let replayed = recorder.events.compactMap { event -> String? in
            guard case .stepReplayed = event.kind else { return nil }
            return event.address.description
        }
        #expect(replayed.contains("2.PriceAndStock/0.PriceOrderOp"), "\(replayed)")
        #expect(!replayed.contains("2.PriceAndStock/1.CheckStockOp"), "\(replayed)")
        #expect(try runs.load(journal.runID).status == .succeeded)
    }
}
