public import Operations

/// Checks that every product of the order is in stock before anything is reserved or charged:
/// a read, launched beside the pricing (the checkout's `PriceAndStock` parallel step).
public final class CheckStockOp: PureOp {
    private let store: Store

    /// Creates the operation.
    public init(store: Store) { self.store = store }

    /// What the check found once the order's products are known to be in stock;
    /// ``StoreError/soldOut(sku:)`` otherwise.
    public func launch(_ context: OpContext<Order>, onFinish: @escaping OnFinish<StockCheck>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let cart = context.input.cart
        completion.finish(Result { try store.checkStock(cart) }.map { StockCheck(linesInStock: cart.lines.count) })
    }
}
