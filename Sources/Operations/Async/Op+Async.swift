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
    /// - Throws: The operation's error, `CancellationError` when the calling task was cancelled
    ///   and the launch ended as cancelled, ``OpError/cancelled``, ``OpError/timedOut`` or
    ///   ``OpError/abandoned(operation:)``.
    public func launch(_ context: OpContext<Input>) async throws -> Output {
        try await bridgedLaunch(context)
    }

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
            throw CancellationError()
        }
    }

    /// Launches the operation with `input` in `environment` and waits for its finish, as
    /// ``launch(_:)`` does.
    public func launch(with input: Input, environment: OpEnvironment = .default) async throws -> Output {
        try await launch(OpContext(input, environment: environment))
    }
}

/// Resumes the awaiting task exactly once: a second finish is reported and dropped, and an
/// `onFinish` released uncalled resumes it with ``OpError/abandoned(operation:)``.
final class BridgeResumption<Output: Sendable>: Sendable {
    private let once = OnceFlag()
    private let continuation: UnsafeContinuation<Output, any Error>
    private let environment: OpEnvironment
    private let operation: any Any.Type

    init(_ continuation: UnsafeContinuation<Output, any Error>, environment: OpEnvironment, operation: any Any.Type) {
        self.continuation = continuation
        self.environment = environment
        self.operation = operation
    }

    deinit {
        guard once.claim() else { return }
        let name = String(describing: operation)
        environment.diagnostics.report(OpDiagnostic(kind: .abandoned, operation: name))
        continuation.resume(throwing: OpError.abandoned(operation: name))
    }

    func resume(with result: Result<Output, any Error>) {
        guard once.claim() else {
            let name = String(describing: operation)
            return environment.diagnostics.report(OpDiagnostic(kind: .finishedTwice, operation: name))
        }
        continuation.resume(with: result)
    }
}
