public import Operations

/// What the store charges for an order: its subtotal less the coupon's discount.
public struct Price: Codable, Sendable, Hashable {
    /// The sum of the cart's lines, in cents.
    public var subtotal: Int
    /// The coupon's discount, in cents.
    public var discount: Int

    /// Creates a price.
    public init(subtotal: Int, discount: Int) {
        self.subtotal = subtotal
        self.discount = discount
    }

    /// What the customer pays, in cents; never below zero.
    public var total: Int { max(0, subtotal - discount) }
}

/// Prices the order at the store: a read, launched beside the stock check (the checkout's
/// `PriceAndStock` parallel step).
public final class PriceOrderOp: PureOp {
    private let store: Store

    /// Creates the operation.
    public init(store: Store) { self.store = store }

    /// The order's price.
    public func launch(_ context: OpContext<Order>, onFinish: @escaping OnFinish<Price>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        completion.succeed(store.price(context.input))
    }
}
