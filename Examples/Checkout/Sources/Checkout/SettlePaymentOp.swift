public import Operations

/// A paid order and whether its charge has settled: what one poll of the settlement answers.
public struct SettlementCheck: Codable, Sendable, Hashable {
    /// The paid order whose charge was asked about.
    public var order: PaidOrder
    /// Whether the charge has settled; the order is confirmed only then.
    public var isSettled: Bool
}

/// Asks the store whether the order's charge has settled: a read, polled until it has.
public final class SettlePaymentOp: PureOp {
    private let store: Store

    /// Creates the operation.
    public init(store: Store) { self.store = store }

    /// The order with the store's answer.
    public func launch(_ context: OpContext<PaidOrder>, onFinish: @escaping OnFinish<SettlementCheck>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let order = context.input
        completion.finish(Result { SettlementCheck(order: order, isSettled: try store.settlement(of: order.receipt)) })
    }
}

/// How a checkout waits for a payment that settles later: polled every `interval`, at most
/// `polls` times, before the order is confirmed.
public struct SettlementPolling: Sendable, Hashable {
    /// The wait between two polls.
    public var interval: Duration
    /// The most polls; the checkout fails with `WaitError.stillNotDone` after them.
    public var polls: Int

    /// Creates a polling.
    ///
    /// - Parameters:
    ///   - interval: The wait between two polls.
    ///   - polls: The most polls.
    public init(interval: Duration = .seconds(2), polls: Int = 10) {
        self.interval = interval
        self.polls = polls
    }
}

extension CheckoutFactory {
    /// A new ``SettlePaymentOp``.
    public func makeSettlePaymentOp() -> SettlePaymentOp { SettlePaymentOp(store: store) }
}

extension ScenarioBuilder where Current == PaidOrder {
    /// The paid checkout, then — when `factory` polls settlements — its payment polled until it
    /// settles, each wait between polls a durable one. Without a polling the chain is unchanged,
    /// so a checkout that does not poll runs and draws as it always did.
    func settled(by factory: CheckoutFactory) -> ScenarioBuilder<Input, PaidOrder> {
        guard let settlement = factory.settlement else { return self }
        return then(
            Step(factory.makeSettlePaymentOp).retrying(.transient(maxAttempts: 3)), repeatingEvery: settlement.interval,
            until: \.isSettled, atMost: settlement.polls
        ).map(\.order)
    }
}
