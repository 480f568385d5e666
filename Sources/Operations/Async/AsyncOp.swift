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
///   delivers `onFinish` exactly once through a ``Completion``: with what `run` returned or threw.
///   Awaited with a context that has neither a token nor a deadline (``launch(_:)``), `run` runs
///   in the awaiting task instead, the only one that can end it.
/// - **Retained until it finishes.** The task holds the operation until `run` returns; nothing
///   else does, so it is released right after.
/// - **Cancellation both ways.** A launch cancelled through its context (its token fires, its
///   deadline passes) finishes at once with ``OpError/cancelled`` or ``OpError/timedOut`` and
///   cancels the task, so `Task.isCancelled`, `Task.checkCancellation()` and every cancellable
///   `await` inside `run` see it. A `run` that throws `CancellationError` finishes the launch
///   with ``OpError/cancelled``, never a failure. Awaiting a launch (``Op/launch(_:)``) from a
///   task that is cancelled fires the launch's token, and so cancels `run`'s task in turn; the
///   awaiting call then throws `CancellationError`.
/// - **Journaled and drawn like any other.** The launch and the finish are recorded in the
///   caller's trace; the `context` `run` gets records into the operation's own scope, so its
///   ``OpContext/trace`` draws messages from the operation, and an operation it launches with
///   that context (or one made from it with ``OpContext/with(input:)``) is drawn as launched by
///   it. Purity is declared as for any operation: add ``PureOp`` or ``IdempotentOp``.
///
/// `run`'s task starts on the launching thread and runs there until its first suspension, as a
/// callback operation's `launch` would (where the platform has `Task.immediate`); a `run` that
/// never suspends finishes before `launch` returns.
public protocol AsyncOp<Input, Output>: Op {
    // Restated so that a conformer's `run` alone names them: inferred through `Op`'s
    // `launch`, whose witness is the default below, they were not (Swift 6.3).
    /// The value a launch needs: `run`'s input.
    associatedtype Input
    /// The value a successful launch delivers: what `run` returns.
    associatedtype Output

    /// The operation's work, as a function of its input.
    ///
    /// - Parameters:
    ///   - input: The launch's input (``OpContext/input``).
    ///   - context: The launch's context, recording into this operation's own trace scope: its
    ///     idempotency key, deadline, environment and trace, and what nested launches pass on.
    /// - Returns: The operation's output, delivered to `onFinish`.
    /// - Throws: The operation's error, delivered to `onFinish`; `CancellationError` finishes
    ///   the launch as cancelled.
    func run(_ input: Input, context: OpContext<Input>) async throws -> Output
}

// MARK: - Default implementations

extension AsyncOp {
    /// Runs ``run(_:context:)`` in a task of its own and finishes the launch once with its
    /// outcome (see ``AsyncOp`` for what it keeps).
    ///
    /// - Parameters:
    ///   - context: The launch context; its token and deadline cancel `run`'s task.
    ///   - onFinish: Called exactly once with the outcome, on any thread.
    public func launch(_ context: OpContext<Input>, onFinish: @escaping OnFinish<Output>) {
        let run = AsyncRun(self, onFinish)
        let completion = Completion(retaining: self, context: context) { run.deliver($0) }
        run.start(completion: completion, context: context)
    }
}
