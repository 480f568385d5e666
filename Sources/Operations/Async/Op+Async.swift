// MARK: - API

extension Op {
    /// Launches the operation and waits for its finish.
    ///
    /// Cancelling the calling task cancels the launch: the operation sees its context's token
    /// fire and the call throws ``OpError/cancelled``.
    ///
    /// - Parameter context: The launch context; its token, if any, still cancels the launch.
    /// - Returns: The operation's output.
    /// - Throws: The operation's error, ``OpError/cancelled`` or ``OpError/timedOut``.
    @inlinable  // specialised for the operation type at the call site: no generic metadata lookups
    public func launch(_ context: OpContext<Input>) async throws -> Output {
        let token = CancellationToken(linkedTo: context.cancellation)
        var context = context
        context.cancellation = token
        let launched = context
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // An operation that calls onFinish directly may call it twice; a continuation
                // must not be resumed twice, so the second call is reported and dropped.
                let resumed = OnceFlag()
                self.launch(launched) { result in
                    guard resumed.claim() else {
                        return launched.environment.diagnostics.report(
                            OpDiagnostic(kind: .finishedTwice, operation: String(describing: Self.self)))
                    }
                    continuation.resume(with: result)
                }
            }
        } onCancel: {
            token.cancel()
        }
    }

    /// Launches the operation with `input` and the default environment, and waits for its
    /// finish.
    ///
    /// - Parameters:
    ///   - input: The launch input.
    ///   - environment: Host-wide services.
    /// - Returns: The operation's output.
    /// - Throws: The operation's error, or ``OpError/cancelled`` when the task is cancelled.
    public func launch(with input: Input, environment: OpEnvironment = .default) async throws -> Output {
        try await launch(OpContext(input, environment: environment))
    }
}
