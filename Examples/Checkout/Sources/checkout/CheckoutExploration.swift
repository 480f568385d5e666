import Checkout
import Operations
import OperationsRunner
import OperationsTesting

/// The store's line under the fault explorer: each request meets the schedule's fault for it,
/// and each time the store acts the world counts the effect.
struct WorldLink: StoreLink {
    let world: FaultWorld

    func fault(for request: String) -> StoreLinkFault? {
        switch world.request(request) {
        case .failBeforeActing?, .serverError?, .tooManyRequests?: .unreachable
        case .loseAnswer?, .timeOut?: .answerLost
        default: nil
        }
    }

    func acted(_ request: String) { world.performed(request) }
}

extension CheckoutProgram {
    /// The flow `checkout explore checkout` runs: a fresh store per schedule, a cart, a coupon, a card.
    @Sendable static func checkoutFlow(_ world: FaultWorld) -> ExploredFlow<CheckoutRequest, Confirmation> {
        let store = Store(link: WorldLink(world: world))
        return ExploredFlow(
            scenario: CheckoutFactory(store: store).checkoutScenario,
            input: CheckoutRequest(cartID: Store.sampleCart.id, card: "tok_visa", coupon: "SAVE5"))
    }
}
