public import Operations

/// Releases a reservation's stock: the compensation of ``ReserveStockOp``, launched when the
/// checkout fails for good after reserving. A side effect, made once per idempotency key.
public final class ReleaseStockOp: Op {
    private let store: Store

    /// Creates the operation.
    public init(store: Store) { self.store = store }

    /// Releases the input reservation.
    public func launch(_ context: OpContext<Reservation>, onFinish: @escaping OnFinish<Void>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        completion.finish(Result { try store.release(context.input, key: context.idempotencyKey(for: "release")) })
    }
}
