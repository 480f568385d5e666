import Checkout
import Dispatch
import Operations
import Testing

/// Waits on the main actor until the model's state satisfies `done`, failing after `timeout`.
@MainActor
func waitForState(
    _ model: CheckoutViewModel, timeout: Duration = .seconds(5), _ done: @escaping (CheckoutViewModel.State) -> Bool
) async throws -> CheckoutViewModel.State {
    if done(model.state) { return model.state }
    let previous = model.onChange
    defer { model.onChange = previous }
    return try await withCheckedThrowingContinuation { continuation in
        var resumed = false
        model.onChange = { state in
            previous?(state)
            guard !resumed, done(state) else { return }
            resumed = true
            continuation.resume(returning: state)
        }
        let seconds = Double(timeout.components.seconds)
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds) {
            MainActor.assumeIsolated {
                guard !resumed else { return }
                resumed = true
                continuation.resume(throwing: CancellationError())
            }
        }
    }
}

@MainActor
@Suite struct CheckoutViewModelTests {
    @Test func theOutcomeArrivesOnTheMainActor() async throws {
        let model = CheckoutViewModel(store: Store())
        model.checkout(CheckoutRequest(cartID: "cart-1", card: "tok_visa"))
        #expect(model.state == .inProgress)
        let state = try await waitForState(model) { if case .confirmed = $0 { true } else { false } }
        MainActor.assertIsolated()
        #expect(state == .confirmed(Confirmation(orderNumber: "order-1", amount: 3400, chargeID: "ch-1")))
    }

    @Test func aDeclinedCardIsAskedForOnTheScreen() async throws {
        let store = Store(faults: Store.Faults(declinedCards: ["tok_declined"]))
        let model = CheckoutViewModel(store: store)
        model.checkout(CheckoutRequest(cartID: "cart-1", card: "tok_declined"))
        let asked = try await waitForState(model) { if case .needsAnotherCard = $0 { true } else { false } }
        #expect(asked == .needsAnotherCard(reason: "card tok_declined declined"))
        model.enterCard("tok_mastercard")
        let state = try await waitForState(model) { if case .confirmed = $0 { true } else { false } }
        #expect(state == .confirmed(Confirmation(orderNumber: "order-1", amount: 3400, chargeID: "ch-1")))
        #expect(store.charges.map(\.card) == ["tok_mastercard"])
    }

    @Test func givingUpOnTheCardFailsTheCheckout() async throws {
        let model = CheckoutViewModel(store: Store(faults: Store.Faults(declinedCards: ["tok_visa"])))
        model.checkout(CheckoutRequest(cartID: "cart-1", card: "tok_visa"))
        _ = try await waitForState(model) { if case .needsAnotherCard = $0 { true } else { false } }
        model.enterCard(nil)
        let state = try await waitForState(model) { if case .failed = $0 { true } else { false } }
        #expect(model.state == state)
    }
}
