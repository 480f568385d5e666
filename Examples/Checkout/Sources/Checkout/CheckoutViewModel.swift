public import Observation
public import Operations

/// The checkout screen's model: launches the scenario, asks for another card when one is
/// declined, and shows the outcome — all on the main actor, with no UI framework.
///
/// It is the scenario's ``PaymentScreen``: the failure handler calls it from any thread, and it
/// hops to the main actor to show the question. The customer's answer goes back through the
/// `ScreenPrompt`, which hands it to the flow off the main actor: ``enterCard(_:)`` returns at
/// once, and the payment request runs elsewhere. A view observes ``state`` (Observation).
@MainActor
@Observable
public final class CheckoutViewModel: PaymentScreen {
    /// What the screen shows.
    public enum State: Sendable, Equatable {
        /// Nothing launched yet.
        case idle
        /// The checkout is under way.
        case inProgress
        /// A card was declined: the screen asks for another (``enterCard(_:)``).
        case needsAnotherCard(reason: String)
        /// The order is confirmed.
        case confirmed(Confirmation)
        /// The checkout failed.
        case failed(String)
    }

    /// What the screen shows now.
    public private(set) var state = State.idle

    @ObservationIgnored private let store: Store
    @ObservationIgnored private let environment: OpEnvironment
    @ObservationIgnored private var pendingCard: ScreenPrompt<String?>?
    @ObservationIgnored private var task: Task<Void, Never>?

    /// Creates the model.
    ///
    /// - Parameters:
    ///   - store: The store the checkout calls.
    ///   - environment: The operations' environment (a test injects its scheduler).
    public init(store: Store, environment: OpEnvironment = .default) {
        self.store = store
        self.environment = environment
    }

    /// Starts the checkout; its outcome arrives in ``state`` on the main actor.
    public func checkout(_ request: CheckoutRequest) {
        task?.cancel()
        state = .inProgress
        let scenario = CheckoutFactory(store: store, paymentScreen: self).checkoutScenario
        let context = OpContext(request, environment: environment)
        task = Task {
            do {
                let confirmation = try await scenario.launch(context)
                state = .confirmed(confirmation)
            } catch {
                state = .failed("\(error)")
            }
        }
    }

    /// Cancels the checkout under way.
    public func cancel() {
        task?.cancel()
    }

    /// The customer's answer to ``State/needsAnotherCard(reason:)``: a new card, or `nil` to give up.
    public func enterCard(_ card: String?) {
        guard let prompt = pendingCard else { return }
        pendingCard = nil
        state = .inProgress
        prompt.answer(card)
    }

    /// Shows the question on the main actor, and takes it away if the checkout ends first.
    nonisolated public func askForAnotherCard(_ reason: String, _ prompt: ScreenPrompt<String?>) {
        Task { @MainActor in
            self.pendingCard = prompt
            self.state = .needsAnotherCard(reason: reason)
        }
        prompt.onClose { _ in
            Task { @MainActor in
                guard self.pendingCard === prompt else { return }
                self.pendingCard = nil
            }
        }
    }
}
