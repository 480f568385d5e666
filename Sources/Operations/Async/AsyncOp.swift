/// An operation written as an `async throws` function of its input.
///
/// Conform, write ``run(_:context:)``, and the operation gets ``Op/launch(_:onFinish:)`` from
/// a default: it is an ``Op`` like any other, launched by scenarios, journaled, retried, resumed
/// and drawn the same way. The callback form stays the contract; this is one way to keep it.
///
/// ```swift
/// final class PriceCartOp: AsyncOp, PureOp {
///     private let inventory: any Inventory
///     init(inventory: any Inventory) { self.inventory = inventory }
///
///     func run(_ cart: Cart, context: OpContext<Cart>) async throws -> PricedCart {
///         let prices = try await inventory.prices(of: Array(cart.items.keys))
///         return PricedCart(cart: cart, total: cart.items.reduce(0) { $0 + prices[$1.key, default: 0] * $1.value })
///     }
/// }
/// ```
///
/// ## What the default launch keeps
///
/// - **One launch, finished once.** Each launch runs `run` once, in a task of its own, and
///   delivers `onFinish` exactly once through a ``Completion``. Awaited with a context that has
///   neither a token nor a deadline (``launch(_:)``), `run` runs in the awaiting task instead.
/// - **Retained until it finishes.** The task holds the operation until `run` returns; nothing
///   else does.
/// - **Cancellation both ways.** A launch cancelled through its context (its token fires, its
///   deadline passes) finishes at once with ``OpError/cancelled`` or ``OpError/timedOut`` and
///   cancels the task, which every cancellable `await` inside `run` sees. A `run` that throws
///   `CancellationError` finishes the launch with ``OpError/cancelled``. Awaiting a launch from
///   a task that is cancelled cancels `run`'s task in turn and throws `CancellationError`.
/// - **Journaled and drawn like any other.** The `context` `run` gets records into the
///   operation's own trace scope, so what it launches with that context is drawn as launched by
///   it. Purity is declared as for any operation: add ``PureOp`` or ``IdempotentOp``.
///
/// `run`'s task starts on the launching thread and runs there until its first suspension (where
/// the platform has `Task.immediate`); a `run` that never suspends finishes before `launch`
/// returns.
public protocol AsyncOp<Input, Output>: Op {
    // Restated so that a conformer's `run` alone names them: inferred through `Op`'s
    // `launch`, whose witness is the default below, they were not (Swift 6.3).
    /// The value a launch needs: `run`'s input.
    associatedtype Input
    /// The value a successful launch delivers: what `run` returns.
    associatedtype Output

    /// The operation's work, as a function of its input: what it returns or throws is delivered
    /// to `onFinish` (`CancellationError` finishes the launch as cancelled). `context` records
    /// into this operation's own trace scope and is what nested launches pass on.
    func run(_ input: Input, context: OpContext<Input>) async throws -> Output
}

// MARK: - Default implementations

extension AsyncOp {
    /// Runs ``run(_:context:)`` in a task of its own, which the context's token and deadline
    /// cancel, and finishes the launch once with its outcome (see ``AsyncOp``).
    public func launch(_ context: OpContext<Input>, onFinish: @escaping OnFinish<Output>) {
        let run = AsyncRun(self, onFinish)
        let completion = Completion(retaining: self, context: context) { run.deliver($0) }
        run.start(completion: completion, context: context)
    }
}
