/// The one-shot finish of a launch: keeps the operation alive until it finishes and delivers
/// `onFinish` exactly once.
///
/// Make one at the top of ``Op/launch(_:onFinish:)`` and call ``finish(_:)`` (or ``succeed(_:)``
/// / ``fail(_:)``) when the work is done, from any thread. The completion:
///
/// - retains the operation from launch until finish, so an asynchronous operation survives the
///   caller's scope, and releases it *before* calling `onFinish`, so the caller sees it gone;
/// - lets exactly one finish through (the first to claim it under the completion's lock),
///   ignores a second one and reports it to the environment's ``OpDiagnostics``;
/// - finishes the launch with ``OpError/cancelled`` when the context's token fires and with
///   ``OpError/timedOut`` at the context's deadline, dropping the real work's later finish;
/// - finishes with ``OpError/abandoned(operation:)`` and reports it if the operation lets go of
///   it without finishing, so a caller is never left waiting by a bug.
public final class Completion<Output: Sendable>: Sendable {
    private let onFinish: OnFinish<Output>
    private let environment: OpEnvironment
    /// A ``NamedOp``'s name, for diagnostics made after its release; others go by their type.
    private let name: String?
    private let operationType: any Any.Type
    private let state: LockedState<FinishState>
    /// The operation's own trace scope, `nil` when tracing is off.
    public let trace: TraceScope?

    /// Starts the finish of a launch of `operation`, retained until the launch finishes: the
    /// token and deadline of `context` are watched, its trace scope records the launch, and
    /// `onFinish` is called exactly once.
    ///
    /// A ``NamedOp`` (a ``Scenario``) is named by its ``NamedOp/name`` in diagnostics rather
    /// than by its generic type.
    public init<O: Op, Input: Sendable>(
        retaining operation: O,
        context: OpContext<Input>,
        onFinish: @escaping OnFinish<Output>
    ) where O.Output == Output {
        let name = (operation as? any NamedOp)?.name
        self.onFinish = onFinish
        self.environment = context.environment
        self.name = name
        self.operationType = O.self
        // Registered before anything can finish the launch, so every finish removes it.
        let inFlightID = context.environment.inFlight?.register(operation: name ?? String(describing: O.self))
        self.state = LockedState(FinishState(operation: operation, watches: Watches(inFlightID: inFlightID)))
        self.trace = context.trace.map { launcher in
            launcher.launch(
                .operation(name ?? String(describing: type(of: operation))), TraceLabel.call("launch", context.input))
        }
        if context.cancellation != nil || context.deadline != nil {
            attach(token: context.cancellation, deadline: context.deadline)
        }
    }

    deinit {
        // Reached only when nobody can finish any more: the operation dropped its completion,
        // and neither the token (which holds it weakly) nor the timer can reach it now.
        guard var held = claim(by: .engine) else { return }
        environment.diagnostics.report(OpDiagnostic(kind: .abandoned, operation: operationName))
        deliver(.failure(OpError.abandoned(operation: operationName)), &held, trace: "onFinish(abandoned)")
    }

    /// Whether the launch has finished, by the operation or by cancellation, deadline.
    ///
    /// Long work may check it to stop early; the result of finishing anyway is simply dropped.
    public var isFinished: Bool { state.withLock { $0.finisher != nil } }

    /// Finishes the launch with `result`; only the first finish of a launch is delivered.
    public func finish(_ result: Result<Output, any Error>) {
        guard var held = claim(by: .operation) else {
            let kind: OpDiagnostic.Kind =
                state.withLock { $0.finisher } == .operation ? .finishedTwice : .lateFinishDropped
            environment.diagnostics.report(OpDiagnostic(kind: kind, operation: operationName))
            return
        }
        deliver(result, &held)
    }

    /// Finishes the launch successfully with `value`.
    public func succeed(_ value: Output) {
        finish(.success(value))
    }

    /// Finishes the launch with `error`.
    public func fail(_ error: any Error) {
        finish(.failure(error))
    }

    /// `context` recording into this operation's trace scope: for an operation or scenario this
    /// launch starts itself, so the nested launch is drawn as a message from this operation.
    public func nested<Input: Sendable>(_ context: OpContext<Input>) -> OpContext<Input> {
        guard let trace else { return context }
        var nested = context
        nested.trace = trace
        return nested
    }

    // MARK: - Internals

    private var operationName: String { name ?? String(describing: operationType) }

    /// Takes the finish for `finisher`, with what the launch held; `nil` when it had finished.
    private func claim(by finisher: Finisher) -> FinishState? {
        state.withLock { state in
            guard state.finisher == nil else { return nil }
            defer { state = FinishState(finisher: finisher) }
            return state
        }
    }

    private func finishByEngine(_ error: OpError) {
        guard var held = claim(by: .engine) else { return }
        deliver(.failure(error), &held)
    }

    private func deliver(_ result: Result<Output, any Error>, _ held: inout FinishState, trace label: String? = nil) {
        stopWatching(held.watches)
        trace?.finish(label ?? TraceLabel.finish(result))
        // The operation goes before `onFinish` runs, so the caller sees it gone.
        held.operation = nil
        onFinish(result)
    }

    private func stopWatching(_ watches: Watches) {
        watches.timer?.cancel()
        if let id = watches.inFlightID { environment.inFlight?.remove(id) }
        watches.registration?.cancel()
    }

    private func attach(token: CancellationToken?, deadline: ContinuousClock.Instant?) {
        // Nothing attached holds the completion strongly: a long-lived token or timer must not
        // keep an abandoned launch alive, or its abandonment would never be reported.
        var watches = Watches()
        watches.registration = token?.onCancel { [weak self] in self?.finishByEngine(.cancelled) }
        if let deadline {
            watches.timer = environment.scheduler.schedule(at: deadline) { [weak self] in
                self?.finishByEngine(.timedOut)
            }
        }
        // A finish that came first (a token that had fired) found nothing to undo: undone here.
        let late = state.withLock { state -> Watches? in
            guard state.finisher == nil else { return watches }
            state.watches.timer = watches.timer
            state.watches.registration = watches.registration
            return nil
        }
        if let late { stopWatching(late) }
    }
}

/// Who finished a launch: the operation's own code (``Completion/finish(_:)``), or the engine
/// (the token, the deadline, the completion's release).
private enum Finisher {
    case operation
    case engine
}

/// A completion's state: who finished it (`nil` while it runs) and, until then, what it holds.
private struct FinishState {
    var finisher: Finisher?
    var operation: (any AnyObject & Sendable)?
    var watches = Watches()
}

/// What watches a running launch, undone when it finishes.
private struct Watches {
    var inFlightID: UInt64?
    var timer: (any ScheduledWork)?
    var registration: CancellationRegistration?
}
