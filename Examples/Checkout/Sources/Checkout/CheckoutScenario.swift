public import Operations

/// Asks the customer for another card after one was declined.
///
/// Called from any thread by the payment step's failure handler; an app's screen hops to the
/// main actor itself (``CheckoutViewModel``), a terminal's reads a line. The prompt delivers the
/// answer once and off the screen's actor, and closes when the checkout is cancelled.
public protocol PaymentScreen: Sendable {
    /// Asks for another card.
    ///
    /// - Parameters:
    ///   - reason: Why the last card did not work, for the customer.
    ///   - prompt: Answer it with the new card's payment token, or `nil` when the customer gives up.
    func askForAnotherCard(_ reason: String, _ prompt: ScreenPrompt<String?>)
}

/// A screen that never has another card: a declined card ends the checkout.
public struct NoOtherCard: PaymentScreen {
    /// Creates the screen.
    public init() {}

    /// Answers `nil`.
    public func askForAnotherCard(_ reason: String, _ prompt: ScreenPrompt<String?>) { prompt.answer(nil) }
}

/// Makes the checkout's operations with their services, and the scenario that chains them.
public struct CheckoutFactory: Sendable {
    /// The store every operation calls.
    public let store: Store
    /// Where a declined card is replaced.
    public let paymentScreen: any PaymentScreen
    /// The reservation's retries: the stock service is sometimes busy. Reserving has side
    /// effects, so the policy must say it may relaunch them; the store's idempotency keys make
    /// that safe.
    public let reserveRetry: RetryPolicy
    /// How a payment that settles later is polled before the order is confirmed; `nil` (the
    /// default) confirms at once.
    public let settlement: SettlementPolling?

    /// Creates a factory.
    ///
    /// - Parameters:
    ///   - store: The store every operation calls.
    ///   - paymentScreen: Where a declined card is replaced.
    ///   - reserveRetry: The reservation's retries; 4 attempts, 200 ms apart and doubling, by default.
    ///   - settlement: How a payment that settles later is polled; `nil` confirms at once.
    public init(
        store: Store, paymentScreen: any PaymentScreen = NoOtherCard(),
        reserveRetry: RetryPolicy = RetryPolicy(maxAttempts: 4, relaunchesSideEffects: true),
        settlement: SettlementPolling? = nil
    ) {
        self.store = store
        self.paymentScreen = paymentScreen
        self.reserveRetry = reserveRetry
        self.settlement = settlement
    }

    /// A new ``LoadCartOp``.
    public func makeLoadCartOp() -> LoadCartOp { LoadCartOp(store: store) }
    /// A new ``ApplyCouponOp``.
    public func makeApplyCouponOp() -> ApplyCouponOp { ApplyCouponOp(store: store) }
    /// A new ``ReserveStockOp``.
    public func makeReserveStockOp() -> ReserveStockOp { ReserveStockOp(store: store) }
    /// A new ``PayOp``.
    public func makePayOp() -> PayOp { PayOp(store: store) }
    /// A new ``ConfirmOrderOp``.
    public func makeConfirmOrderOp() -> ConfirmOrderOp { ConfirmOrderOp(store: store) }

    /// The checkout: load the cart, apply the coupon when there is one, check the stock and price
    /// the order at once, reserve the stock
    /// (retried while the stock service is busy), pay (another card when one is declined), confirm.
    /// A checkout that fails for good after the reservation releases it.
    public var checkoutScenario: Scenario<CheckoutRequest, Confirmation> {
        Scenario("CheckoutScenario", version: 1) { chain in
            chain
                .then(Step(makeLoadCartOp), input: \.cartID) { request, cart in Order(request: request, cart: cart) }
                .then(Step(makeApplyCouponOp), when: \.hasCoupon, describedAs: "coupon given")
                // The order goes on as it was given, priced; the stock check only has to pass.
                .parallel("PriceAndStock", Step(makePriceOrderOp), Step(makeCheckStockOp)) { order, price, _ in
                    order.priced(price)
                }
                .then(reserveStock, input: { $0 }) { order, reservation in
                    ReservedOrder(order: order, reservation: reservation)
                }
                .then(Step(makePayOp).onFailure(askForAnotherCard), input: \.payment) { reserved, receipt in
                    PaidOrder(reserved: reserved, receipt: receipt)
                }
                .settled(by: self)
                .then(Step(makeConfirmOrderOp))
        }
    }

    /// A new ``CheckStockOp``.
    public func makeCheckStockOp() -> CheckStockOp { CheckStockOp(store: store) }
    /// A new ``PriceOrderOp``.
    public func makePriceOrderOp() -> PriceOrderOp { PriceOrderOp(store: store) }

    /// A new ``ReleaseStockOp``.
    public func makeReleaseStockOp() -> ReleaseStockOp { ReleaseStockOp(store: store) }

    /// The reservation, retried while the stock service is busy, and released again when the
    /// checkout fails for good after it (a card declined with no other card).
    private var reserveStock: Step<Order, Reservation> {
        Step(makeReserveStockOp).retrying(reserveRetry).compensated(by: Step(makeReleaseStockOp))
    }

    /// A declined card: the screen asks for another, and the payment is launched again with it.
    private var askForAnotherCard: FailureHandler<PaymentRequest, Receipt> {
        let screen = paymentScreen
        return { failure, decide in
            guard case .cardDeclined = failure.error as? StoreError else { return decide(.fail) }
            let prompt = ScreenPrompt<String?>(cancellation: failure.cancellation, operation: "PayOp") { answer in
                switch answer {
                case .success(let card?): decide(.relaunch(failure.input.with(card: card), because: "card declined"))
                // Nobody could be asked (PromptUnanswerable): the checkout stops as cancelled and
                // keeps its reservation for a rerun with a card; nothing is undone.
                case .failure(let error) where error.isCancellation: decide(.stop(because: error))
                // The customer has no other card: the declined payment fails for good.
                case .success(nil), .failure: decide(.fail)
                }
            }
            screen.askForAnotherCard("\(failure.error)", prompt)
        }
    }
}
