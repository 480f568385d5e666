/// An ``AsyncOp`` made from a closure: an operation for a step whose work is one `async`
/// call and needs no type of its own.
///
/// It is named (``NamedOp``), so diagrams, diagnostics and journals show `name`, not the
/// generic type. Its purity is that of a plain ``Op``, side effects, unless the step that launches
/// it says otherwise; ``Step/init(_:purity:run:)`` makes such a step in one line.
///
/// ```swift
/// let price = AsyncFunctionOp<Cart, PricedCart>("PriceCart") { cart, context in
///     try await inventory.priced(cart)
/// }
/// ```
public final class AsyncFunctionOp<Input: Sendable, Output: Sendable>: AsyncOp, NamedOp {
    /// The name diagrams, diagnostics and journals show.
    public let name: String
    private let body: @Sendable (Input, OpContext<Input>) async throws -> Output

    /// Creates the operation called `name`, whose `body` is the work of one launch (see
    /// ``AsyncOp/run(_:context:)``), called once per launch.
    public init(_ name: String, _ body: @escaping @Sendable (Input, OpContext<Input>) async throws -> Output) {
        self.name = name
        self.body = body
    }

    /// Calls the closure the operation was made with.
    public func run(_ input: Input, context: OpContext<Input>) async throws -> Output {
        try await body(input, context)
    }
}

extension Step {
    /// Creates a named step whose work is one `async` function: each launch runs it once in a
    /// new ``AsyncFunctionOp``.
    ///
    /// ```swift
    /// .then(Step("PriceCart", purity: .pure) { cart, context in try await inventory.priced(cart) })
    /// ```
    ///
    /// Its purity is side effects unless told (see ``Purity``).
    public init(
        _ name: String, purity: Purity = .sideEffects,
        run: @escaping @Sendable (Input, OpContext<Input>) async throws -> Output
    ) {
        self.init(name, purity: purity) { AsyncFunctionOp(name, run) }
    }
}
