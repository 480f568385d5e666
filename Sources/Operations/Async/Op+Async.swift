import Synchronization

// MARK: - API

extension Op {
    /// Launches the operation and waits for its finish.
    ///
    /// Cancelling the calling task cancels the launch: the operation sees its context's token
    /// fire, and the call throws `CancellationError`, as any `async` call of a cancelled task
    /// does. A launch cancelled by its own token, with the task going on, throws
    /// ``OpError/cancelled``.
    ///
    /// An operation that lets go of `onFinish` without calling it does not leave the caller
    /// waiting: the call throws ``OpError/abandoned(operation:)``, as a ``Completion`` reports
    /// it.
    ///
    /// - Parameter context: The launch context; its token, if any, still cancels the launch.
    /// - Returns: The operation's output.
    /// - Throws: The operation's error, `CancellationError` when the calling task was cancelled
    ///   and the launch ended as cancelled, ``OpError/cancelled``, ``OpError/timedOut`` or
    ///   ``OpError/abandoned(operation:)``.
    // Inlinable, with the resumption it makes: specialised for the operation type at the call
    // site, it looks up no generic metadata; unspecialised, it did so on every call (the
    // `bridge.await` and `scenario.3steps.await` cases of Sources/opctl-bench/BenchCases.swift).
    @inlinable
    public func launch(_ context: OpContext<Input>) async throws -> Output {
        try await bridgedLaunch(context)
    }

    /// What ``launch(_:)`` does for any operation: the callback launch behind a continuation.
    @inlinable
    func bridgedLaunch(_ context: OpContext<Input>) async throws -> Output {
        let token = CancellationToken(linkedTo: context.cancellation)
        var launched = context
        launched.cancellation = token
        do {
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { continuation in
                    let resumption = BridgeResumption(
                        continuation, environment: launched.environment, operation: Self.self)
                    self.launch(launched) { result in resumption.resume(with: result) }
                }
            } onCancel: {
                token.cancel()
            }
        } catch let error where Task.isCancelled && error.isCancellation {
            // The task's cancellation, said the way Swift concurrency says it.
            throw CancellationError()
        }
    }

    /// Launches the operation with `input` and the default environment, and waits for its
    /// finish.
    ///
    /// - Parameters:
    ///   - input: The launch input.
    ///   - environment: Host-wide services.
    /// - Returns: The operation's output.
    /// - Throws: The operation's error, or `CancellationError` when the task is cancelled.
    public func launch(with input: Input, environment: OpEnvironment = .default) async throws -> Output {
        try await launch(OpContext(input, environment: environment))
    }
}

/// The bridge's side of one launch: resumes the awaiting task exactly once.
///
/// The continuation is an unsafe one, made safe here: a flag lets the first finish through (an
/// operation that calls `onFinish` directly may call it twice; the second call is reported and
/// dropped), and an `onFinish` released without being called resumes the caller with
/// ``OpError/abandoned(operation:)`` and reports it instead of leaving it waiting forever (a
/// checked continuation only logs that leak, and cost a canary allocation and three metadata
/// lookups per call). One object holds the flag, the continuation and what a report needs, so
/// the `onFinish` closure captures one reference and the bridge allocates nothing else for it.
@usableFromInline
final class BridgeResumption<Output: Sendable>: Sendable {
    private let taken = Atomic<Bool>(false)
    // A frozen struct of one pointer: destroying it needs no metadata in this generic class's
    // unspecialised deinit (a CheckedContinuation field looked its type up on every call).
    @usableFromInline let continuation: UnsafeContinuation<Output, any Error>
    @usableFromInline let environment: OpEnvironment
    @usableFromInline let operation: any Any.Type

    @inlinable
    init(_ continuation: UnsafeContinuation<Output, any Error>, environment: OpEnvironment, operation: any Any.Type) {
        self.continuation = continuation
        self.environment = environment
        self.operation = operation
    }

    deinit {
        guard !taken.load(ordering: .acquiring) else { return }
        resumeAbandoned()
    }

    /// Resumes the awaiting task; a second call is reported, not delivered.
    @inlinable
    func resume(with result: Result<Output, any Error>) {
        guard claim() else { return reportSecondFinish() }
        continuation.resume(with: result)
    }

    /// `true` for the first finish only.
    @usableFromInline
    func claim() -> Bool {
        !taken.exchange(true, ordering: .acquiringAndReleasing)
    }

    @usableFromInline
    func reportSecondFinish() {
        environment.diagnostics.report(OpDiagnostic(kind: .finishedTwice, operation: String(describing: operation)))
    }

    /// The operation released `onFinish` without calling it; nothing can resume the caller now.
    /// Kept out of `deinit`, so the finished path does not look up the failure's metadata.
    @inline(never)
    private func resumeAbandoned() {
        guard claim() else { return }
        let name = String(describing: operation)
        environment.diagnostics.report(OpDiagnostic(kind: .abandoned, operation: name))
        continuation.resume(throwing: OpError.abandoned(operation: name))
    }
}
