public import Operations

/// What one backend call carries from the launch that makes it: how to cancel it, whose clock
/// times it out, and the key that lets the backend recognise a repeat.
///
/// An operation builds it from its context (``init(_:)``), so cancelling the launch closes the
/// request's connection, the request's timeout runs on the launch's ``Scheduler`` (a
/// `TestScheduler` from `OperationsTesting` in tests), and a step with side effects sends its
/// attempt's ``IdempotencyKey`` as the `Idempotency-Key` header (Docs/HTTP-API.md).
public struct AuthCall: Sendable {
    /// Fired to abandon the request; the transport stops it and closes its connection.
    public var cancellation: CancellationToken?
    /// The clock the client's request timeout runs on.
    public var scheduler: any Scheduler
    /// The key of the request (see ``request(_:)``); sent only on requests that make the
    /// backend act (`POST`), never printed in clear.
    public var idempotencyKey: IdempotencyKey?

    /// Creates call options by hand, for direct use of an ``AuthAPI`` outside an operation.
    ///
    /// - Parameters:
    ///   - cancellation: A token that abandons the request; `nil` for none.
    ///   - scheduler: The clock of the request timeout; Dispatch's by default.
    ///   - idempotencyKey: The attempt's key; `nil` for none.
    public init(
        cancellation: CancellationToken? = nil, scheduler: any Scheduler = DispatchScheduler.shared,
        idempotencyKey: IdempotencyKey? = nil
    ) {
        self.cancellation = cancellation
        self.scheduler = scheduler
        self.idempotencyKey = idempotencyKey
    }

    /// The call options of a launch: its cancellation, its environment's scheduler and its key.
    ///
    /// - Parameter context: The launch's context.
    public init<Input>(_ context: OpContext<Input>) {
        self.init(
            cancellation: context.cancellation, scheduler: context.environment.scheduler,
            idempotencyKey: context.idempotencyKey)
    }

    /// The same options with the key of one request of the launch: each request with side
    /// effects sends its own key (`"send"` and `"verify:CODE"` of ``CodeOp``), derived from the
    /// launch's with ``IdempotencyKey/forRequest(_:)``, so a server that scopes a key to one
    /// request never sees it twice on different ones.
    ///
    /// - Parameter name: Which request of the operation; unique within it.
    /// - Returns: A copy whose key is that request's, or none when the launch has none.
    public func request(_ name: String) -> AuthCall {
        var copy = self
        copy.idempotencyKey = idempotencyKey?.forRequest(name)
        return copy
    }

    /// The same options without a key: for requests that only read, or that must not be answered
    /// from an earlier attempt (``CodeOp``'s resend the person asked for).
    public var withoutKey: AuthCall {
        var copy = self
        copy.idempotencyKey = nil
        return copy
    }
}
