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
/// With no cancellation token, deadline or in-flight registry in the context, a launch costs one
/// allocation (this object) and one atomic exchange.
public final class Completion<Output: Sendable>: Sendable {
    private enum State: UInt8, AtomicRepresentable {
        case running
        case finishedByOperation
        case finishedByEngine
    }

    private struct Attachments: ~Copyable {
        var cancellation: CancellationRegistration?
        var timer: (any ScheduledWork)?
        var inFlightID: UInt64?
    }

    private let state = Atomic<State>(.running)
    private let onFinish: OnFinish<Output>
    private nonisolated(unsafe) let retention: Unmanaged<AnyObject>
    private let operationType: any Any.Type
    private let environment: OpEnvironment
    /// Whether anything was attached at launch, so an unattached finish skips the lock.
    private let isAttached: Bool
    private let attachments = Mutex(Attachments())

    /// Starts the finish of a launch.
    ///
    /// - Parameters:
    ///   - operation: The operation being launched; retained until the launch finishes.
    ///   - context: The launch's context; its token and deadline are watched.
    ///   - onFinish: The caller's completion, called exactly once.
    public init<O: Op, Input: Sendable>(
        retaining operation: O,
        context: OpContext<Input>,
        onFinish: @escaping OnFinish<Output>
    ) where O.Output == Output {
        self.onFinish = onFinish
        self.retention = Unmanaged.passRetained(operation as AnyObject)
        self.operationType = O.self
        self.environment = context.environment
        self.isAttached =
            context.cancellation != nil || context.deadline != nil
            || context.environment.inFlight != nil
        if isAttached { attach(context) }
    }

    deinit {
        // Reached only when nobody can finish any more: the operation dropped its completion.
        guard claim(by: .finishedByEngine) else { return }
        environment.diagnostics.report(OpDiagnostic(kind: .abandoned, operation: operationName))
        release()
        onFinish(.failure(OpError.abandoned(operation: operationName)))
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

    private var operationName: String { String(describing: operationType) }

    private func claim(by finisher: State) -> Bool {
        state.compareExchange(expected: .running, desired: finisher, ordering: .acquiringAndReleasing)
            .exchanged
    }

    private func finishByEngine(_ error: OpError) {
        guard claim(by: .finishedByEngine) else { return }
        deliver(.failure(error))
    }

    private func deliver(_ result: Result<Output, any Error>) {
        if isAttached { detach() }
        release()
        onFinish(result)
    }

    private func release() {
        retention.release()
    }

    private func attach(_ context: OpContext<some Sendable>) {
        // Handlers hold the completion weakly: a long-lived token or timer must not keep an
        // abandoned launch alive, or its abandonment would never be reported.
        if let registry = context.environment.inFlight {
            let id = registry.register(operation: operationName)
            attachments.withLock { $0.inFlightID = id }
        }
        if let token = context.cancellation {
            let registration = token.onCancel { [weak self] in self?.finishByEngine(.cancelled) }
            attachments.withLock { $0.cancellation = registration }
        }
        if let deadline = context.deadline {
            let timer = context.environment.scheduler.schedule(at: deadline) { [weak self] in
                self?.finishByEngine(.timedOut)
            }
            attachments.withLock { $0.timer = timer }
        }
        // A finish that raced with attaching found nothing to detach; detach what came late.
        if isFinished { detach() }
    }

    private func detach() {
        let (registration, timer, inFlightID) = attachments.withLock { attachments in
            defer {
                attachments.cancellation = nil
                attachments.timer = nil
                attachments.inFlightID = nil
            }
            return (attachments.cancellation, attachments.timer, attachments.inFlightID)
        }
        registration?.cancel()
        timer?.cancel()
        if let inFlightID { environment.inFlight?.remove(inFlightID) }
    }
}
