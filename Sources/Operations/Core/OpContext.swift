/// What one launch of an operation needs: its input and its context dependencies.
///
/// A context is a plain value. Scenarios derive the next step's context with ``with(input:)``,
/// which keeps the cancellation token, the deadline and the environment, so they reach nested
/// operations and scenarios without any shared store.
public struct OpContext<Input: Sendable>: Sendable {
    /// The launch's input value.
    public var input: Input
    /// Host-wide services: scheduler, diagnostics, in-flight registry, observers.
    public var environment: OpEnvironment
    /// Fired by the caller to cancel the launch; `nil` when the launch cannot be cancelled.
    public var cancellation: CancellationToken?
    /// The instant after which the launch finishes with ``OpError/timedOut``.
    public var deadline: ContinuousClock.Instant?
    /// Where this launch sits inside scenarios, outermost first; `nil` for a launch made by hand.
    public var scope: ScenarioScope?
    /// Where this launch records its messages; `nil` when tracing is off, which costs nothing.
    ///
    /// ``Completion`` records the launch and the finish itself and gives the operation its own
    /// scope (``Completion/trace``) for the messages in between.
    public var trace: TraceScope?
    /// The key of this launch of a step with side effects; `nil` when the launch has none (see
    /// ``IdempotencyKey`` for the rule).
    ///
    /// A scenario sets it before launching such a step, the same for every retry and rerun with
    /// the same value. An operation that sends one request may send it as it is; one that sends
    /// several asks ``idempotencyKey(for:)`` for each.
    public var idempotencyKey: IdempotencyKey?

    /// Creates a context; the environment is ``OpEnvironment/default`` when omitted.
    public init(
        _ input: Input,
        cancellation: CancellationToken? = nil,
        deadline: ContinuousClock.Instant? = nil,
        environment: OpEnvironment = .default
    ) {
        self.input = input
        self.environment = environment
        self.cancellation = cancellation
        self.deadline = deadline
    }

    /// The key of one request of this launch: derived from ``idempotencyKey`` and `request`, so
    /// each request with side effects has its own key, the same in every retry and rerun of the
    /// launch; `nil` when the launch has no key.
    ///
    /// ```swift
    /// api.sendCode(token, idempotencyKey: context.idempotencyKey(for: "send"))
    /// api.verifyCode(code, token, idempotencyKey: context.idempotencyKey(for: "verify"))
    /// ```
    ///
    /// `request` names the request, uniquely within the operation.
    public func idempotencyKey(for request: String) -> IdempotencyKey? {
        idempotencyKey?.forRequest(request)
    }

    /// The same context dependencies carrying another input.
    public func with<Next: Sendable>(input: Next) -> OpContext<Next> {
        var next = OpContext<Next>(input, cancellation: cancellation, deadline: deadline, environment: environment)
        next.scope = scope
        next.trace = trace
        next.idempotencyKey = idempotencyKey
        return next
    }

    /// The same context with a deadline no later than `now + timeout`.
    public func withTimeout(_ timeout: Duration) -> OpContext<Input> {
        var copy = self
        let proposed = environment.scheduler.now.advanced(by: timeout)
        copy.deadline = deadline.map { min($0, proposed) } ?? proposed
        return copy
    }
}

extension OpContext where Input == Void {
    /// A context for an operation that takes no input.
    public init(
        cancellation: CancellationToken? = nil,
        deadline: ContinuousClock.Instant? = nil,
        environment: OpEnvironment = .default
    ) {
        self.init((), cancellation: cancellation, deadline: deadline, environment: environment)
    }
}
