import Synchronization

/// The one-shot finish of a launch: keeps the operation alive until it finishes and delivers
/// `onFinish` exactly once.
///
/// Make one at the top of ``Op/launch(_:onFinish:)`` and call ``finish(_:)`` (or ``succeed(_:)``
/// / ``fail(_:)``) when the work is done, from any thread. The completion:
///
/// - retains the operation from launch until finish, so an asynchronous operation survives the
///   caller's scope, and releases it *before* calling `onFinish`, so the caller sees it gone;
/// - lets exactly one finish through (an atomic compare-and-swap, no lock), ignores a second one
///   and reports it to the environment's ``OpDiagnostics``;
/// - finishes the launch with ``OpError/cancelled`` when the context's token fires and with
///   ``OpError/timedOut`` at the context's deadline, dropping the real work's later finish;
/// - finishes with ``OpError/abandoned(operation:)`` and reports it if the operation lets go of
///   it without finishing, so a caller is never left waiting by a bug.
///
/// With no cancellation token, deadline, trace or in-flight registry in the context, a launch
/// allocates nothing but this object.
public final class Completion<Output: Sendable>: Sendable {
    // The state type lives outside the generic class (see `CompletionState`): nested in it, it
    // would be generic too, and every launch would look its metadata up at run time.
    private typealias State = CompletionState
    private typealias Watch = CompletionWatch

    /// Who finished the launch: the contract's one atomic, which lets exactly one finish through.
    private let state = Atomic<State>(.running)
    private let onFinish: OnFinish<Output>
    /// The operation, held from launch until the finish that wins `state` takes it out.
    ///
    /// `nonisolated(unsafe)` is sound here because exactly one thread ever touches it after
    /// `init`: the one whose compare-and-swap on `state` won (its acquiring-and-releasing
    /// exchange orders it after `init`), or `deinit`, which runs when no other reference is
    /// left. Everything else reads only `state`.
    nonisolated(unsafe) private var operation: (any AnyObject & Sendable)?
    private let operationType: any Any.Type
    /// The launch's environment, `nil` for ``OpEnvironment/default`` (see
    /// ``OpContext/storedEnvironment``); read only to report, to register and to schedule.
    private let storedEnvironment: OpEnvironment?
    /// The token this launch is registered with, if its context has one.
    private let token: CancellationToken?
    /// The registration's id with ``token``; `UInt64.max` until registered.
    private let registrationID = Atomic<UInt64>(.max)
    /// The timer, registry entry, trace scope and own name of the launch; `nil` for the usual
    /// launch that has none.
    private let watch: Watch?
    /// The operation's own trace scope, `nil` when tracing is off.
    public var trace: TraceScope? { watch?.trace?.scope }

    // The two public initialisers are inlinable: specialised for the operation's input type
    // where it launches, they read the context's parts without looking up its type's metadata
    // (measured by the `op.sync` case of Sources/opctl-bench/BenchCases.swift); what they call
    // is not generic over it.

    /// Starts the finish of a launch.
    ///
    /// - Parameters:
    ///   - operation: The operation being launched; retained until the launch finishes.
    ///   - context: The launch's context; its token and deadline are watched.
    ///   - onFinish: The caller's completion, called exactly once.
    @inlinable
    public convenience init<O: Op, Input: Sendable>(
        retaining operation: O,
        context: OpContext<Input>,
        onFinish: @escaping OnFinish<Output>
    ) where O.Output == Output {
        guard context.storedEnvironment != nil || context.extras != nil else {
            self.init(plain: operation, type: O.self, onFinish: onFinish)
            return
        }
        self.init(
            operation: operation, type: O.self, storedEnvironment: context.storedEnvironment, extras: context.extras,
            trace: Self.recordLaunch(of: operation, context), name: nil, onFinish: onFinish)
    }

    /// Starts the finish of a launch of an operation with a name of its own (a ``Scenario``):
    /// its diagnostics — a second finish, a late one, an in-flight registration — then name the
    /// scenario (`AuthScenario`), not its generic type (`Scenario<Optional<PhoneNumber>, …>`).
    /// Chosen by overload resolution where the operation's type is known to be named.
    ///
    /// - Parameters:
    ///   - operation: The operation being launched; retained until the launch finishes.
    ///   - context: The launch's context; its token and deadline are watched.
    ///   - onFinish: The caller's completion, called exactly once.
    @inlinable
    public convenience init<O: NamedOp, Input: Sendable>(
        retaining operation: O,
        context: OpContext<Input>,
        onFinish: @escaping OnFinish<Output>
    ) where O.Output == Output {
        self.init(
            operation: operation, type: O.self, storedEnvironment: context.storedEnvironment, extras: context.extras,
            trace: Self.recordLaunch(of: operation, context), name: operation.name, onFinish: onFinish)
    }

    /// The launch of an operation whose context has nothing to watch (no token, deadline,
    /// trace, registry or environment of its own): the usual launch, which then carries no
    /// optional part to retain and release.
    @usableFromInline
    init(plain operation: any AnyObject & Sendable, type: any Any.Type, onFinish: @escaping OnFinish<Output>) {
        self.operation = operation
        self.operationType = type
        self.storedEnvironment = nil
        self.onFinish = onFinish
        self.token = nil
        self.watch = nil
    }

    /// What both public initialisers do, given the context's parts and the operation's own
    /// trace scope, and the name diagnostics use.
    @usableFromInline
    init(
        operation: any AnyObject & Sendable,
        type: any Any.Type,
        storedEnvironment: OpEnvironment?,
        extras: ContextExtras?,
        trace: TraceScopeBox?,
        name: String?,
        onFinish: @escaping OnFinish<Output>
    ) {
        self.operation = operation
        self.operationType = type
        self.storedEnvironment = storedEnvironment
        self.onFinish = onFinish
        self.token = extras?.cancellation
        let deadline = extras?.deadline
        let isTimed = deadline != nil || storedEnvironment?.inFlight != nil
        if trace != nil || isTimed || name != nil {
            self.watch = Watch(trace: trace, name: name, isTimed: isTimed)
        } else {
            self.watch = nil
        }
        if isTimed || token != nil { attach(deadline: deadline) }
    }

    /// Records the launch into the caller's scope when the context is traced, and returns the
    /// operation's own scope; `nil` when tracing is off.
    @inlinable
    static func recordLaunch<Input>(of operation: some Op, _ context: OpContext<Input>) -> TraceScopeBox? {
        guard let launcher = context.extras?.trace else { return nil }
        return recordLaunch(of: operation, input: context.input, in: launcher.scope)
    }

    /// Records the launch into the caller's scope and returns the operation's own scope.
    @usableFromInline
    static func recordLaunch<Input>(of operation: some Op, input: Input, in scope: TraceScope) -> TraceScopeBox {
        let name = (operation as? any NamedOp)?.name ?? String(describing: type(of: operation))
        return TraceScopeBox(scope.launch(.operation(name), TraceLabel.call("launch", input)))
    }

    deinit {
        // Reached only when nobody can finish any more: the operation dropped its completion,
        // and neither the token (which holds it weakly) nor the timer can reach it now.
        if state.load(ordering: .acquiring) == .running { finishAbandoned() }
    }

    /// Whether the launch has finished, by the operation or by cancellation, deadline.
    ///
    /// Long work may check it to stop early; the result of finishing anyway is simply dropped.
    public var isFinished: Bool { state.load(ordering: .acquiring) != .running }

    /// Finishes the launch with `result`; only the first finish of a launch is delivered.
    ///
    /// - Parameter result: The outcome to deliver to `onFinish`.
    public func finish(_ result: Result<Output, any Error>) {
        guard claim(by: .finishedByOperation) else {
            let kind: OpDiagnostic.Kind =
                state.load(ordering: .relaxed) == .finishedByOperation
                ? .finishedTwice : .lateFinishDropped
            environment.diagnostics.report(OpDiagnostic(kind: kind, operation: operationName))
            return
        }
        deliver(result)
    }

    /// Finishes the launch successfully.
    ///
    /// - Parameter value: The operation's output.
    public func succeed(_ value: Output) {
        finish(.success(value))
    }

    /// Finishes the launch with an error.
    ///
    /// - Parameter error: Why the operation failed.
    public func fail(_ error: any Error) {
        finish(.failure(error))
    }

    /// A context for an operation or scenario this launch starts itself, so the nested launch is
    /// drawn as a message from this operation.
    ///
    /// - Parameter context: The nested launch's context.
    /// - Returns: The context, recording into this operation's trace scope.
    public func nested<Input: Sendable>(_ context: OpContext<Input>) -> OpContext<Input> {
        guard watch?.trace != nil else { return context }
        var nested = context
        nested.extras = self.nested(context.extras)
        return nested
    }

    /// The extras of a context ``nested(_:)`` makes.
    func nested(_ extras: ContextExtras?) -> ContextExtras? {
        guard let trace = watch?.trace else { return extras }
        return ContextExtras.make(
            cancellation: extras?.cancellation, deadline: extras?.deadline, scope: extras?.scope, trace: trace,
            idempotencyKey: extras?.idempotencyKey)
    }

    // MARK: - Internals

    private var environment: OpEnvironment { OpEnvironment.resolved(storedEnvironment) }

    private var operationName: String { watch?.name ?? String(describing: operationType) }

    private func claim(by finisher: State) -> Bool {
        state.compareExchange(expected: .running, desired: finisher, ordering: .acquiringAndReleasing)
            .exchanged
    }

    /// Kept out of `deinit`: building a `Result<Output, …>` needs its generic metadata, which
    /// an inlined failure path would look up on every launch.
    @inline(never)
    private func finishAbandoned() {
        guard claim(by: .finishedByEngine) else { return }
        // Still retained here, so the operation can give its own name (a scenario's).
        let name = (operation as? any NamedOp)?.name ?? operationName
        environment.diagnostics.report(OpDiagnostic(kind: .abandoned, operation: name))
        deliver(.failure(OpError.abandoned(operation: name)), trace: "onFinish(abandoned)")
    }

    @inline(never)
    private func finishByEngine(_ error: OpError) {
        guard claim(by: .finishedByEngine) else { return }
        deliver(.failure(error))
    }

    /// Delivers the finish this caller claimed: stops watching, records it, releases the
    /// operation, then calls `onFinish`.
    private func deliver(_ result: Result<Output, any Error>, trace label: String? = nil) {
        if token != nil || watch != nil {
            detach()
            if let trace = watch?.trace { trace.scope.finish(label ?? TraceLabel.finish(result)) }
        }
        releaseOperation()
        onFinish(result)
    }

    /// Drops the operation, before `onFinish` runs, so the caller sees it gone.
    private func releaseOperation() {
        let released = operation.take()
        withExtendedLifetime(released) {}
    }

    private func attach(deadline: FrozenInstant?) {
        // Nothing attached holds the completion strongly: a long-lived token or timer must not
        // keep an abandoned launch alive, or its abandonment would never be reported. The timer
        // and the token hold it weakly.
        if let registry = environment.inFlight {
            let id = registry.register(operation: operationName)
            watch?.slots?.withLock { $0.inFlightID = id }
        }
        if let token {
            guard let id = token.register(self) else { return finishByEngine(.cancelled) }
            registrationID.store(id, ordering: .releasing)
        }
        if let deadline {
            let timer = environment.scheduler.schedule(at: deadline.instant) { [weak self] in
                self?.finishByEngine(.timedOut)
            }
            watch?.slots?.withLock { $0.timer = timer }
        }
        // A finish that raced with attaching found nothing to detach; detach what came late.
        if isFinished { detach() }
    }

    private func detach() {
        leaveToken()
        watch?.stopTimerAndLeaveRegistry(environment.inFlight)
    }

    /// Removes the launch from its token; does nothing when it is not registered.
    private func leaveToken() {
        let id = registrationID.load(ordering: .acquiring)
        guard let token, id != .max else { return }
        token.remove(id)
    }
}

extension Completion: CancellationTarget {
    /// Called by a firing token, outside its lock, holding this completion strongly: finishes
    /// the launch as cancelled unless it already finished. The token has already dropped the
    /// registration.
    func tokenFired() {
        finishByEngine(.cancelled)
    }
}

/// Who finished a launch, in one atomic byte.
private enum CompletionState: UInt8, AtomicRepresentable {
    case running
    case finishedByOperation
    case finishedByEngine
}

/// What a launch records besides its finish: its timer and in-flight registry entry, its trace
/// scope, the name of a ``NamedOp``. Allocated only for a launch that has one of them.
private final class CompletionWatch: Sendable {
    struct Slots {
        var timer: (any ScheduledWork)?
        var inFlightID: UInt64?
    }

    /// The operation's own trace scope.
    let trace: TraceScopeBox?
    /// The name a ``NamedOp`` gives itself, kept for diagnostics made after its release.
    let name: String?
    /// The timer and registry entry; `nil` (no lock) when the launch has no deadline or registry.
    let slots: LockedState<Slots>?

    init(trace: TraceScopeBox?, name: String?, isTimed: Bool) {
        self.trace = trace
        self.name = name
        self.slots = isTimed ? LockedState(Slots()) : nil
    }

    func stopTimerAndLeaveRegistry(_ inFlight: InFlightRegistry?) {
        guard let slots else { return }
        let (timer, inFlightID) = slots.withLock { slots in
            defer {
                slots.timer = nil
                slots.inFlightID = nil
            }
            return (slots.timer, slots.inFlightID)
        }
        timer?.cancel()
        if let inFlightID { inFlight?.remove(inFlightID) }
    }
}
