/// What one launch of an operation needs: its input and its context dependencies.
///
/// A context is a value. Scenarios derive the next step's context with ``with(input:)``, which
/// keeps the cancellation token, the deadline and the environment, so they reach nested
/// operations and scenarios without any shared store.
public struct OpContext<Input: Sendable>: Sendable {
    // The two references come first, at offsets that do not depend on `Input`, so code generic
    // over the input type reads them without looking up this type's metadata.
    /// The environment, `nil` for ``OpEnvironment/default``: the default lives as long as the
    /// process, so a context made without an environment neither retains nor releases one, nor
    /// does the ``Completion`` of its launch.
    @usableFromInline var storedEnvironment: OpEnvironment?
    /// The token, deadline, scenario scope, trace scope and key, behind one reference: `nil` for
    /// the usual launch that has none (see ``ContextExtras``).
    @usableFromInline var extras: ContextExtras?
    /// The launch's input value.
    public var input: Input
    /// Host-wide services: scheduler, diagnostics, in-flight registry, observers.
    public var environment: OpEnvironment {
        get { OpEnvironment.resolved(storedEnvironment) }
        set { storedEnvironment = OpEnvironment.stored(newValue) }
    }

    /// Fired by the caller to cancel the launch; `nil` when the launch cannot be cancelled.
    public var cancellation: CancellationToken? {
        get { extras?.cancellation }
        set {
            extras = ContextExtras.make(
                cancellation: newValue, deadline: storedDeadline, scope: scope, trace: storedTrace,
                idempotencyKey: idempotencyKey)
        }
    }
    /// The instant after which the launch finishes with ``OpError/timedOut``.
    public var deadline: ContinuousClock.Instant? {
        get { storedDeadline?.instant }
        set { storedDeadline = newValue.map(FrozenInstant.init) }
    }
    /// The deadline in a layout known at compile time (see ``FrozenInstant``).
    var storedDeadline: FrozenInstant? {
        get { extras?.deadline }
        set {
            extras = ContextExtras.make(
                cancellation: cancellation, deadline: newValue, scope: scope, trace: storedTrace,
                idempotencyKey: idempotencyKey)
        }
    }
    /// Where this launch sits inside scenarios, outermost first; empty for a launch made by hand.
    public var scope: ScenarioScope? {
        get { extras?.scope }
        set {
            extras = ContextExtras.make(
                cancellation: cancellation, deadline: storedDeadline, scope: newValue, trace: storedTrace,
                idempotencyKey: idempotencyKey)
        }
    }
    /// Where this launch records its messages; `nil` when tracing is off, which costs nothing.
    ///
    /// ``Completion`` records the launch and the finish itself and gives the operation its own
    /// scope (``Completion/trace``) for the messages in between.
    public var trace: TraceScope? {
        get { storedTrace?.scope }
        set { storedTrace = newValue.map(TraceScopeBox.init) }
    }
    /// The trace scope behind one reference (see ``TraceScopeBox``).
    var storedTrace: TraceScopeBox? {
        get { extras?.trace }
        set {
            extras = ContextExtras.make(
                cancellation: cancellation, deadline: storedDeadline, scope: scope, trace: newValue,
                idempotencyKey: idempotencyKey)
        }
    }

    /// The key of this launch of a step with side effects; `nil` when the launch has none (see
    /// ``IdempotencyKey`` for the rule).
    ///
    /// A scenario sets it before launching such a step, the same for every retry and rerun with
    /// the same value. An operation that sends one request may send it as it is; one that sends
    /// several asks ``idempotencyKey(for:)`` for each.
    public var idempotencyKey: IdempotencyKey? {
        get { extras?.idempotencyKey }
        set {
            extras = ContextExtras.make(
                cancellation: cancellation, deadline: storedDeadline, scope: scope, trace: storedTrace,
                idempotencyKey: newValue)
        }
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
    /// - Parameter request: Which request of the operation: a name unique within it.
    public func idempotencyKey(for request: String) -> IdempotencyKey? {
        idempotencyKey?.forRequest(request)
    }

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - input: The launch's input value.
    ///   - cancellation: A token the caller may fire to cancel the launch.
    ///   - deadline: When the launch times out.
    ///   - environment: Host-wide services; ``OpEnvironment/default`` when omitted.
    // The initialisers and `with(input:)` are inlinable: specialised for the input type where a
    // launch is made, which generic code in this module cannot be. Without it every context
    // made looked its type's metadata up (the `op.sync` case of
    // Sources/opctl-bench/BenchCases.swift).
    @inlinable
    public init(
        _ input: Input,
        cancellation: CancellationToken? = nil,
        deadline: ContinuousClock.Instant? = nil,
        environment: OpEnvironment = .default
    ) {
        self.input = input
        self.storedEnvironment = OpEnvironment.stored(environment)
        self.extras = ContextExtras.make(
            cancellation: cancellation, deadline: deadline.map(FrozenInstant.init), scope: nil, trace: nil)
    }

    /// Creates a context without a deadline.
    ///
    /// The same as passing no `deadline` to ``init(_:cancellation:deadline:environment:)``, and
    /// chosen by the compiler when none is passed: it never builds an optional
    /// `ContinuousClock.Instant`, whose resilient layout costs value-witness calls per launch.
    ///
    /// - Parameters:
    ///   - input: The launch's input value.
    ///   - cancellation: A token the caller may fire to cancel the launch.
    ///   - environment: Host-wide services (``init(_:cancellation:)`` when there are none to
    ///     pass).
    @inlinable
    public init(_ input: Input, cancellation: CancellationToken? = nil, environment: OpEnvironment) {
        self.init(input: input, storedEnvironment: OpEnvironment.stored(environment), cancellation: cancellation)
    }

    /// Creates a context with the default environment and no deadline.
    ///
    /// The same as passing ``OpEnvironment/default`` to ``init(_:cancellation:environment:)``,
    /// and chosen by the compiler when no environment is passed: the default environment is not
    /// even looked up.
    ///
    /// - Parameters:
    ///   - input: The launch's input value.
    ///   - cancellation: A token the caller may fire to cancel the launch.
    @inlinable
    public init(_ input: Input, cancellation: CancellationToken? = nil) {
        self.init(input: input, storedEnvironment: nil, cancellation: cancellation)
    }

    @inlinable
    init(input: Input, storedEnvironment: OpEnvironment?, cancellation: CancellationToken?) {
        self.input = input
        self.storedEnvironment = storedEnvironment
        self.extras = cancellation.map { ContextExtras(cancellation: $0, deadline: nil, scope: nil, trace: nil) }
    }

    /// The same context dependencies carrying another input.
    ///
    /// - Parameter input: The input of the next launch.
    /// - Returns: A context with `input` and everything else unchanged.
    @inlinable
    public func with<Next: Sendable>(input: Next) -> OpContext<Next> {
        OpContext<Next>(input: input, storedEnvironment: storedEnvironment, extras: extras)
    }

    /// The same context with a deadline no later than `now + timeout`.
    ///
    /// - Parameter timeout: How long the launch may take from now.
    /// - Returns: A context whose deadline is the earlier of the current one and the new one.
    public func withTimeout(_ timeout: Duration) -> OpContext<Input> {
        var copy = self
        let proposed = environment.scheduler.now.advanced(by: timeout)
        copy.deadline = deadline.map { min($0, proposed) } ?? proposed
        return copy
    }

    init(input: Input, environment: OpEnvironment, extras: ContextExtras?) {
        self.input = input
        self.storedEnvironment = OpEnvironment.stored(environment)
        self.extras = extras
    }

    @inlinable
    init(input: Input, storedEnvironment: OpEnvironment?, extras: ContextExtras?) {
        self.input = input
        self.storedEnvironment = storedEnvironment
        self.extras = extras
    }
}

/// The parts of a context most launches do not have: a token, a deadline, a scenario scope, a
/// trace scope, an idempotency key. Immutable; a context that changes one of them gets a new one.
///
/// Behind one reference so that the usual launch, which has none of them, carries one null
/// pointer, and a context stays small to copy.
@usableFromInline
final class ContextExtras: Sendable {
    let cancellation: CancellationToken?
    let deadline: FrozenInstant?
    /// Where the launch sits in scenarios.
    let scope: ScenarioScope?
    @usableFromInline let trace: TraceScopeBox?
    let idempotencyKey: IdempotencyKey?

    @usableFromInline
    init(
        cancellation: CancellationToken?, deadline: FrozenInstant?, scope: ScenarioScope?, trace: TraceScopeBox?,
        idempotencyKey: IdempotencyKey? = nil
    ) {
        self.cancellation = cancellation
        self.deadline = deadline
        self.scope = scope
        self.trace = trace
        self.idempotencyKey = idempotencyKey
    }

    /// The extras holding these parts, or `nil` when there are none.
    @usableFromInline
    static func make(
        cancellation: CancellationToken?, deadline: FrozenInstant?, scope: ScenarioScope?, trace: TraceScopeBox?,
        idempotencyKey: IdempotencyKey? = nil
    ) -> ContextExtras? {
        if cancellation == nil && deadline == nil && scope == nil && trace == nil && idempotencyKey == nil {
            return nil
        }
        return ContextExtras(
            cancellation: cancellation, deadline: deadline, scope: scope, trace: trace, idempotencyKey: idempotencyKey)
    }
}

/// A ``TraceScope`` behind one reference, as a context and a completion hold it.
///
/// A scope is an existential tracer, a participant and a launcher id: a dozen words with
/// strings in them. Boxed, an untraced context carries one null pointer; a traced launch pays
/// one allocation, as it already records events.
@usableFromInline
final class TraceScopeBox: Sendable {
    @usableFromInline let scope: TraceScope

    init(_ scope: TraceScope) {
        self.scope = scope
    }
}

/// An instant (a deadline, when a step started) stored as its distance from a fixed instant of
/// this process.
///
/// `ContinuousClock.Instant` is resilient: its layout is known only at run time, so a context
/// holding one is copied and destroyed through value witnesses on every launch, and a context
/// of any input type becomes address-only; an optional one captured by a closure is copied
/// through them too, with a metadata lookup. `Duration` is frozen; `Instant` arithmetic is exact
/// (it is a `Duration` inside), so the round trip gives back the same instant.
@usableFromInline
struct FrozenInstant: Sendable, Hashable {
    private static let reference = ContinuousClock.Instant.now

    let sinceReference: Duration

    @usableFromInline
    init(_ instant: ContinuousClock.Instant) {
        sinceReference = Self.reference.duration(to: instant)
    }

    var instant: ContinuousClock.Instant {
        Self.reference.advanced(by: sinceReference)
    }
}

extension OpContext where Input == Void {
    /// A context for an operation that takes no input.
    @inlinable
    public init(
        cancellation: CancellationToken? = nil,
        deadline: ContinuousClock.Instant? = nil,
        environment: OpEnvironment = .default
    ) {
        self.init((), cancellation: cancellation, deadline: deadline, environment: environment)
    }

    /// A context for an operation that takes no input, without a deadline (see
    /// ``init(_:cancellation:environment:)``).
    @inlinable
    public init(cancellation: CancellationToken? = nil, environment: OpEnvironment) {
        self.init((), cancellation: cancellation, environment: environment)
    }

    /// A context for an operation that takes no input, with the default environment and no
    /// deadline (see ``init(_:cancellation:)``).
    @inlinable
    public init(cancellation: CancellationToken? = nil) {
        self.init((), cancellation: cancellation)
    }
}
