import Checkout
import Operations
import OperationsTesting
import Testing

@MainActor
@Suite struct CheckoutViewModelTests {
    @Test func theOutcomeArrivesOnTheMainActor() async throws {
        let model = CheckoutViewModel(store: Store())
        model.checkout(CheckoutRequest(cartID: "cart-1", card: "tok_visa"))
        #expect(model.state == .inProgress)
        let state = try await waitFor({ model.state }, until: { if case .confirmed = $0 { true } else { false } })
        MainActor.assertIsolated()
        #expect(state == .confirmed(Confirmation(orderNumber: "order-1", amount: 3400, chargeID: "ch-1")))
    }

    @Test func aDeclinedCardIsAskedForOnTheScreen() async throws {
        let store = Store(faults: Store.Faults(declinedCards: ["tok_declined"]))
        let model = CheckoutViewModel(store: store)
        model.checkout(CheckoutRequest(cartID: "cart-1", card: "tok_declined"))
        let asked = try await waitFor(
            { model.state }, until: { if case .needsAnotherCard = $0 { true } else { false } })
        #expect(asked == .needsAnotherCard(reason: "card tok_declined declined"))
        model.enterCard("tok_mastercard")
        let state = try await waitFor({ model.state }, until: { if case .confirmed = $0 { true } else { false } })
        #expect(state == .confirmed(Confirmation(orderNumber: "order-1", amount: 3400, chargeID: "ch-1")))
        #expect(store.charges.map(\.card) == ["tok_mastercard"])
    }

    @Test func givingUpOnTheCardFailsTheCheckout() async throws {
        let model = CheckoutViewModel(store: Store(faults: Store.Faults(declinedCards: ["tok_visa"])))
        model.checkout(CheckoutRequest(cartID: "cart-1", card: "tok_visa"))
        _ = try await waitFor({ model.state }, until: { if case .needsAnotherCard = $0 { true } else { false } })
        model.enterCard(nil)
        let state = try await waitFor({ model.state }, until: { if case .failed = $0 { true } else { false } })
        #expect(model.state == state)
    }

    @Test func cancellingWhileTheCardIsAskedForTakesTheQuestionAway() async throws {
        let store = Store(faults: Store.Faults(declinedCards: ["tok_visa"]))
        let model = CheckoutViewModel(store: store)
        model.checkout(CheckoutRequest(cartID: "cart-1", card: "tok_visa"))
        _ = try await waitFor({ model.state }, until: { if case .needsAnotherCard = $0 { true } else { false } })
        model.cancel()
        _ = try await waitFor({ model.state }, until: { if case .failed = $0 { true } else { false } })
        // The question went with the checkout: a late answer starts nothing.
        model.enterCard("tok_mastercard")
        #expect(store.charges.isEmpty)
        #expect(model.state != .inProgress)
    }
}
