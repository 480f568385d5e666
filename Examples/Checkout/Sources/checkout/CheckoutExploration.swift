import Checkout
import Operations
import OperationsExplorer
import OperationsJournal
import OperationsRunner

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

extension CheckoutProgram {
    /// The flow `checkout explore declined` runs: the card is declined for good, so the run
    /// must end declined with its reservation released — once, whatever the faults did to the
    /// release on its way.
    @Sendable static func declinedFlow(_ world: FaultWorld) -> ExploredFlow<CheckoutRequest, Confirmation> {
        let store = Store(faults: Store.Faults(declinedCards: ["tok_declined"]), link: WorldLink(world: world))
        return ExploredFlow(
            scenario: CheckoutFactory(store: store).checkoutScenario,
            input: CheckoutRequest(cartID: Store.sampleCart.id, card: "tok_declined", coupon: nil),
            finishedWhen: { result in
                guard case .failure(let error) = result, let cause = (error as? StepFailure)?.rootCause else {
                    return false
                }
                if case .cardDeclined? = cause as? StoreError { return true }
                // A rerun fails the payment again with the error its journal recorded.
                return (cause as? RecordedError).map { $0.type == "StoreError" && $0.description.hasSuffix("declined") }
                    ?? false
            },
            finalCheck: {
                let held = store.heldReservations
                return held.isEmpty ? nil : "the declined checkout left stock reserved: \(held.sorted())"
            })
    }
}
