extension AsyncOp {
    /// Launches the operation and waits for its finish, running ``run(_:context:)`` in the
    /// calling task when nothing but that task can end the launch.
    ///
    /// A launch whose context has neither a token nor a deadline can only be ended by the
    /// calling task's cancellation, which `run` sees itself when it runs in that task: the
    /// launch is then made, journaled, drawn and finished once through a ``Completion`` like any
    /// other, without a task of its own. `run`'s context carries a token that the calling task's
    /// cancellation fires, so what `run` launches with it is cancelled too. A context with a
    /// token or a deadline, which can end the launch while `run` is still busy, is launched as
    /// ``Op/launch(_:)`` launches any operation.
    ///
    /// - Parameter context: The launch context.
    /// - Returns: What `run` returned.
    /// - Throws: What `run` threw; `CancellationError` when the calling task was cancelled and
    ///   the launch ended as cancelled; ``OpError/cancelled`` for a `CancellationError` out of
    ///   `run` while the task goes on; the errors of ``Op/launch(_:)`` for a context with a
    ///   token or a deadline.
    public func launch(_ context: OpContext<Input>) async throws -> Output {
        guard context.cancellation == nil, context.deadline == nil else { return try await bridgedLaunch(context) }
        return try await AwaitedRun.run(self, context, Completion(retaining: self, context: context) { _ in })
    }
}

extension AsyncFunctionOp {
    /// Launches the operation and waits for its finish, as an ``AsyncOp``'s ``AsyncOp/launch(_:)``
    /// does, with `name` in diagnostics.
    ///
    /// - Parameter context: The launch context.
    /// - Returns: What the closure returned.
    /// - Throws: As ``AsyncOp/launch(_:)``.
    public func launch(_ context: OpContext<Input>) async throws -> Output {
        guard context.cancellation == nil, context.deadline == nil else { return try await bridgedLaunch(context) }
        return try await AwaitedRun.run(self, context, Completion(retaining: self, context: context) { _ in })
    }
}

/// An ``AsyncOp`` launch awaited in the calling task (``AsyncOp/launch(_:)``).
enum AwaitedRun {
    /// Runs `operation` in the calling task and finishes `completion`, which was made from a
    /// context without a token or a deadline: only this call finishes it, once.
    static func run<Operation: AsyncOp>(
        _ operation: Operation, _ context: OpContext<Operation.Input>, _ completion: Completion<Operation.Output>
    ) async throws -> Operation.Output {
        let token = CancellationToken()
        var running = context
        running.cancellation = token
        let outcome = await withTaskCancellationHandler {
            await AsyncRun<Operation>.outcome(of: operation, completion.nested(running))
        } onCancel: {
            token.cancel()
        }
        completion.finish(outcome)
        switch outcome {
        case .success(let output):
            return output
        case .failure(let error) where Task.isCancelled && error.isCancellation:
            // The task's cancellation, said the way Swift concurrency says it.
            throw CancellationError()
        case .failure(let error):
            throw error
        }
    }
}
