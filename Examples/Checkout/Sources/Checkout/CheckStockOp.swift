public import Operations

/// Checks that every product of the order is in stock before anything is reserved or charged:
/// a read, launched beside the pricing (the checkout's `PriceAndStock` parallel step).
public final class CheckStockOp: PureOp {
    private let store: Store

    /// Creates the operation.
    public init(store: Store) { self.store = store }

    /// The order, once its products are known to be in stock; ``StoreError/soldOut(sku:)``
    /// otherwise.
    public func launch(_ context: OpContext<Order>, onFinish: @escaping OnFinish<Order>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let order = context.input
        completion.finish(Result { try store.checkStock(order.cart) }.map { order })
    }
}
