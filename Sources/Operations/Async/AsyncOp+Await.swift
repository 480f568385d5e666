extension AsyncOp {
    /// Launches the operation and waits for its finish, running ``run(_:context:)`` in the
    /// calling task when nothing but that task can end the launch.
    ///
    /// A launch whose context has neither a token nor a deadline can only be ended by the
    /// calling task's cancellation, which `run` sees itself in that task: the launch is made,
    /// journaled, drawn and finished once through a ``Completion`` like any other, without a
    /// task of its own, and `run`'s context carries a token the task's cancellation fires. A
    /// context with a token or a deadline is launched as ``Op/launch(_:)`` launches any
    /// operation.
    ///
    /// - Throws: What `run` threw; `CancellationError` when the calling task was cancelled and
    ///   the launch ended as cancelled; ``OpError/cancelled`` for a `CancellationError` out of
    ///   `run` while the task goes on; the errors of ``Op/launch(_:)`` for a context with a
    ///   token or a deadline.
    public func launch(_ context: OpContext<Input>) async throws -> Output {
        guard context.cancellation == nil, context.deadline == nil else { return try await bridgedLaunch(context) }
        let completion = Completion(retaining: self, context: context) { _ in }
        let token = CancellationToken()
        var running = context
        running.cancellation = token
        let outcome = await withTaskCancellationHandler {
            await AsyncRun<Self>.outcome(of: self, completion.nested(running))
        } onCancel: {
            token.cancel()
        }
        completion.finish(outcome)
        do {
            return try outcome.get()
        } catch  where Task.isCancelled && error.isCancellation {
            throw CancellationError()
        }
    }
}
