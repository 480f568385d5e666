public import Operations

/// Loads the cart: reads the store, changes nothing.
public final class LoadCartOp: PureOp {
    private let store: Store

    /// Creates the operation.
    public init(store: Store) { self.store = store }

    /// Loads the cart with the input's id.
    public func launch(_ context: OpContext<String>, onFinish: @escaping OnFinish<Cart>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        completion.finish(Result { try store.cart(context.input) })
    }
}

/// Applies the order's coupon: looks up its discount, changes nothing at the store.
public final class ApplyCouponOp: PureOp {
    private let store: Store

    /// Creates the operation.
    public init(store: Store) { self.store = store }

    /// The order with its coupon's discount.
    public func launch(_ context: OpContext<Order>, onFinish: @escaping OnFinish<Order>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        var order = context.input
        completion.finish(
            Result {
                order.discount = try store.discount(coupon: order.coupon ?? "")
                return order
            })
    }
}

/// Reserves the order's stock: a side effect, made once per idempotency key.
public final class ReserveStockOp: Op {
    private let store: Store

    /// Creates the operation.
    public init(store: Store) { self.store = store }

    /// Reserves the order's cart.
    public func launch(_ context: OpContext<Order>, onFinish: @escaping OnFinish<Reservation>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        completion.finish(Result { try store.reserve(context.input.cart, key: context.idempotencyKey(for: "reserve")) })
    }
}

/// Charges the card: a side effect, made once per idempotency key.
public final class PayOp: Op {
    private let store: Store

    /// Creates the operation.
    public init(store: Store) { self.store = store }

    /// Charges the input's card.
    public func launch(_ context: OpContext<PaymentRequest>, onFinish: @escaping OnFinish<Receipt>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        completion.finish(Result { try store.charge(context.input, key: context.idempotencyKey(for: "charge")) })
    }
}

/// Confirms the paid order: a side effect, made once per idempotency key.
public final class ConfirmOrderOp: Op {
    private let store: Store

    /// Creates the operation.
    public init(store: Store) { self.store = store }

    /// Confirms the order.
    public func launch(_ context: OpContext<PaidOrder>, onFinish: @escaping OnFinish<Confirmation>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        completion.finish(Result { try store.confirm(context.input, key: context.idempotencyKey(for: "confirm")) })
    }
}
