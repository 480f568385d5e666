import Checkout
import Operations
import OperationsExplorer

extension CheckoutProgram {
    /// The checkout of a payment that settles later: the store answers "pending" to the first
    /// poll, so faults land on both polls and in the wait between them too.
    @Sendable static func settlementFlow(_ world: FaultWorld) -> ExploredFlow<CheckoutRequest, Confirmation> {
        let store = Store(faults: Store.Faults(pendingSettlementPolls: 1), link: WorldLink(world: world))
        return ExploredFlow(
            scenario: CheckoutFactory(store: store, settlement: SettlementPolling(interval: .seconds(2), polls: 10))
                .checkoutScenario,
            input: CheckoutRequest(cartID: Store.sampleCart.id, card: "tok_visa", coupon: "SAVE5"))
    }
}
