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
/// costs one allocation (this object), one retain and one release of the operation and one
/// atomic compare-and-swap; the default environment adds nothing to that, another one a retain
/// and a release.
public final class Completion<Output: Sendable>: Sendable {
    // The state types live outside the generic class (see `CompletionState`): nested in it they
    // would be generic too, and every launch would look their metadata up at run time.
    private typealias State = CompletionState
    private typealias Watch = CompletionWatch

    private let state = Atomic<State>(.running)
    private let onFinish: OnFinish<Output>
    private nonisolated(unsafe) let retention: Unmanaged<AnyObject>
    private let operationType: any Any.Type
    // The two optional references below are held unmanaged, retained when set and released by
    // `deinit` only when set: as optional stored properties, each cost every launch a call to
    // release a null pointer, a few nanoseconds apiece on `op.sync`.
    /// The launch's environment, `nil` for ``OpEnvironment/default`` (see
    /// ``OpContext/storedEnvironment``); read only to report, to register and to schedule.
    private let environmentReference: Unmanaged<OpEnvironment>?
    /// The token this launch is registered with, as a ``CancellationTarget`` (no closure, no
    /// weak reference, no box); `nil` when it has none.
    private let tokenReference: Unmanaged<CancellationToken>?
    /// The registration's id; written once in `init`, before the operation can reach this
    /// completion, and read by its finish and `deinit` (a firing token does not read it).
    @exclusivity(unchecked) private nonisolated(unsafe) var registrationID = UInt64.max
    /// The timer, registry entry, trace scope and own name of the launch, behind one reference;
    /// `nil` for the usual launch that has none.
    private let watchReference: Unmanaged<Watch>?
    /// The operation's own trace scope, `nil` when tracing is off.
    public var trace: TraceScope? { watch?.trace?.scope }

    /// Starts the finish of a launch.
    ///
    /// - Parameters:
    ///   - operation: The operation being launched; retained until the launch finishes.
    ///   - context: The launch's context; its token and deadline are watched.
    ///   - onFinish: The caller's completion, called exactly once.
    @inlinable
    public convenience init<O: Op, Input: Sendable>(
        retaining operation: __shared O,
        context: __shared OpContext<Input>,
        onFinish: @escaping OnFinish<Output>
    ) where O.Output == Output {
        self.init(retaining: operation, context: context, name: nil, onFinish: onFinish)
    }

    /// Starts the finish of a launch of an operation with a name of its own (a ``Scenario``):
    /// its diagnostics — a second finish, a late one, an in-flight registration — then name the
    /// scenario (`AuthScenario`), not its generic type (`Scenario<Optional<PhoneNumber>, …>`).
    /// Chosen by overload resolution where the operation's type is known to be named, so other
    /// launches pay nothing for it.
    ///
    /// - Parameters:
    ///   - operation: The operation being launched; retained until the launch finishes.
    ///   - context: The launch's context; its token and deadline are watched.
    ///   - onFinish: The caller's completion, called exactly once.
    @inlinable
    public convenience init<O: NamedOp, Input: Sendable>(
        retaining operation: __shared O,
        context: __shared OpContext<Input>,
        onFinish: @escaping OnFinish<Output>
    ) where O.Output == Output {
        self.init(retaining: operation, context: context, name: operation.name, onFinish: onFinish)
    }

    /// What both public initialisers do, with the name diagnostics use.
    @inlinable @inline(__always)
    convenience init<O: Op, Input: Sendable>(
        retaining operation: __shared O,
        context: __shared OpContext<Input>,
        name: String?,
        onFinish: @escaping OnFinish<Output>
    ) where O.Output == Output {
        // Inlined into the operation's `launch`, so the context is read where its input type is
        // known; the designated initialiser below does not depend on it. No closure reads the
        // context: capturing it would copy the whole context per launch.
        let trace: TraceScopeBox?
        if let launcher = context.storedTrace {
            trace = Self.recordLaunch(of: operation, input: context.input, in: launcher.scope)
        } else {
            trace = nil
        }
        // The operation is borrowed and retained here, once: taken as an owned argument, it cost
        // the caller a retain and a release around the call.
        let retention = Unmanaged<AnyObject>.passRetained(operation)
        let environment = context.storedEnvironment.map(Unmanaged.passRetained)
        if context.extras == nil && name == nil {
            self.init(retention: retention, type: O.self, environment: environment, onFinish: onFinish)
        } else {
            self.init(
                retention: retention, type: O.self, extras: context.extras, environment: environment, trace: trace,
                name: name, onFinish: onFinish)
        }
    }

    /// Whether a launch with `context` may be finished by the engine (a token, a deadline) or
    /// registered in flight, so that its completion may have to name the operation after
    /// releasing it: a late finish is dropped with a diagnostic, and the registry lists names.
    /// A ``NamedOp`` that never finishes twice (a ``Scenario``) needs its name kept only then.
    @inlinable
    static func mayNameAfterRelease(_ context: OpContext<some Sendable>) -> Bool {
        context.cancellation != nil || context.storedDeadline != nil || context.environment.inFlight != nil
    }

    /// Records the launch into the caller's scope and returns the operation's own scope; kept
    /// out of line so the untraced path stays small.
    @usableFromInline
    static func recordLaunch<Input>(of operation: some Op, input: Input, in scope: TraceScope) -> TraceScopeBox {
        let name = (operation as? any NamedOp)?.name ?? String(describing: type(of: operation))
        return TraceScopeBox(scope.launch(.operation(name), TraceLabel.call("launch", input)))
    }

    /// The launch of a context with no token, deadline, scope or trace: takes over the
    /// operation's retention and the environment's, if any.
    @usableFromInline
    init(
        retention: Unmanaged<AnyObject>,
        type: any Any.Type,
        environment: Unmanaged<OpEnvironment>?,
        onFinish: @escaping OnFinish<Output>
    ) {
        self.retention = retention
        self.operationType = type
        self.environmentReference = environment
        self.onFinish = onFinish
        self.tokenReference = nil
        // The default environment has no registry.
        guard environment?.takeUnretainedValue().inFlight != nil else {
            self.watchReference = nil
            return
        }
        self.watchReference = .passRetained(Watch(trace: nil, name: nil, isTimed: true))
        attach(deadline: nil)
    }

    /// Any other launch: takes over the operation's retention and the environment's, if any,
    /// and reads the token and the deadline from the context's extras, which the caller only
    /// lends.
    @usableFromInline
    init(
        retention: Unmanaged<AnyObject>,
        type: any Any.Type,
        extras: __shared ContextExtras?,
        environment: Unmanaged<OpEnvironment>?,
        trace: TraceScopeBox?,
        name: String?,
        onFinish: @escaping OnFinish<Output>
    ) {
        self.retention = retention
        self.operationType = type
        self.environmentReference = environment
        self.onFinish = onFinish
        let token = extras?.cancellation
        self.tokenReference = token.map(Unmanaged.passRetained)
        let deadline = extras?.deadline
        let isTimed = deadline != nil || environment?.takeUnretainedValue().inFlight != nil
        if trace != nil || isTimed || name != nil {
            self.watchReference = .passRetained(Watch(trace: trace, name: name, isTimed: isTimed))
        } else {
            self.watchReference = nil
        }
        if isTimed || token != nil { attach(deadline: deadline) }
    }

    deinit {
        // Reached only when nobody can finish any more: the operation dropped its completion.
        // Nobody else holds the object now, so a plain load spares the finished launch a second
        // atomic read-modify-write; the claim still guards the abandoned one.
        let finisher = state.load(ordering: .acquiring)
        if finisher != .finishedByOperation {
            // Unfinished, or finished by the engine: a token may be firing and reaching this
            // object right now. Leaving it takes the token's lock, which waits for that firing to
            // be done with this object and keeps any later one away.
            leaveToken()
            if finisher == .running, state.load(ordering: .acquiring) == .running { finishAbandoned() }
        }
        tokenReference?.release()
        watchReference?.release()
        environmentReference?.release()
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

    // MARK: - Internals

    private var environment: OpEnvironment { OpEnvironment.resolved(environmentReference?.takeUnretainedValue()) }

    private var watch: Watch? { watchReference?.takeUnretainedValue() }

    /// The operation's own trace scope, as contexts hold it (see ``nested(_:)``).
    @usableFromInline var ownTrace: TraceScopeBox? { watch?.trace }

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
        let name = (retention.takeUnretainedValue() as? any NamedOp)?.name ?? operationName
        environment.diagnostics.report(OpDiagnostic(kind: .abandoned, operation: name))
        detach()
        watch?.trace?.scope.finish("onFinish(abandoned)")
        release()
        onFinish(.failure(OpError.abandoned(operation: name)))
    }

    @inline(never)
    private func finishByEngine(_ error: OpError) {
        guard claim(by: .finishedByEngine) else { return }
        deliver(.failure(error))
    }

    /// A context for an operation or scenario this launch starts itself, so the nested launch is
    /// drawn as a message from this operation.
    ///
    /// - Parameter context: The nested launch's context.
    /// - Returns: The context, recording into this operation's trace scope.
    @inlinable  // where the input type is known: a generic call looked up the context's metadata
    public func nested<Input: Sendable>(_ context: OpContext<Input>) -> OpContext<Input> {
        guard let trace = ownTrace else { return context }
        var nested = context
        nested.storedTrace = trace
        return nested
    }

    @inline(__always)
    private func deliver(_ result: Result<Output, any Error>) {
        if tokenReference != nil || watchReference != nil {
            detach()
            if let trace = watch?.trace { trace.scope.finish(TraceLabel.finish(result)) }
        }
        release()
        onFinish(result)
    }

    private func release() {
        retention.release()
    }

    private func attach(deadline: FrozenInstant?) {
        // Nothing attached holds the completion strongly: a long-lived token or timer must not
        // keep an abandoned launch alive, or its abandonment would never be reported. The timer
        // holds it weakly; the token not at all (see `CancellationTarget`).
        if let registry = environment.inFlight {
            let id = registry.register(operation: operationName)
            watch?.slots?.withLock { $0.inFlightID = id }
        }
        if let token = tokenReference?.takeUnretainedValue() {
            // Written once, here, before the operation can reach this completion.
            guard let id = token.register(self) else { return finishByEngine(.cancelled) }
            registrationID = id
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
        guard let token = tokenReference?.takeUnretainedValue(), registrationID != .max else { return }
        token.remove(registrationID)
    }
}

extension Completion: CancellationTarget {
    /// Called by a firing token under its lock, while this object is sure to be alive (its
    /// `deinit` leaves the token under the same lock first). Claims the finish and hands back
    /// a delivery made of copies, which runs after the lock is released even if this object is
    /// gone by then. The token has already dropped the registration.
    func claimCancellation() -> (@Sendable () -> Void)? {
        guard claim(by: .finishedByEngine) else { return nil }
        let (watch, inFlight, onFinish) = (self.watch, environment.inFlight, self.onFinish)
        // Unmanaged is not Sendable; this +1 moves to the delivery, which releases it once.
        nonisolated(unsafe) let retention = self.retention
        return {
            watch?.stopTimerAndLeaveRegistry(inFlight)
            let result = Result<Output, any Error>.failure(OpError.cancelled)
            if let trace = watch?.trace { trace.scope.finish(TraceLabel.finish(result)) }
            retention.release()
            onFinish(result)
        }
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
