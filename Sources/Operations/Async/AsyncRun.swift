/// One launch of an ``AsyncOp``: the operation until its task takes it, the task, the caller's
/// `onFinish`. A finish by the engine cancels the task, even one started after it; the task
/// lets go of the operation when `run` returns, so `onFinish` sees it released.
final class AsyncRun<Operation: AsyncOp>: Sendable {
    typealias Output = Operation.Output

    private let onFinish: OnFinish<Output>
    private let state: LockedState<AsyncRunState<Operation>>

    init(_ operation: Operation, _ onFinish: @escaping OnFinish<Output>) {
        self.onFinish = onFinish
        self.state = LockedState(AsyncRunState(operation: operation))
    }

    /// The launch's finish, whoever made it: cancels the task, then tells the caller.
    func deliver(_ result: Result<Output, any Error>) {
        let running = state.withLock { state -> Task<Void, Never>? in
            state.finished = true
            return state.task.take()
        }
        running?.cancel()
        onFinish(result)
    }

    /// Starts the operation's run, unless `completion` has already finished the launch.
    func start(completion: Completion<Output>, context: OpContext<Operation.Input>) {
        guard !completion.isFinished else { return }
        let running = completion.nested(context)
        let body: @Sendable () async -> Void = {
            // The operation is a temporary of this statement: released when `run` returns,
            // before the finish below releases the completion's reference and calls `onFinish`.
            let outcome = await Self.outcome(of: self.state.withLock { $0.operation.take() }, running)
            completion.finish(outcome)
        }
        let started: Task<Void, Never>
        // `Task.immediate` (run on the launching thread until the first suspension) is in the
        // Swift 6.2 runtime: on Linux it ships with the toolchain, on Apple platforms with the OS
        // (macOS 26, iOS 26 and their siblings). Older Apple systems enqueue the task instead.
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            started = Task.immediate(operation: body)
        } else {
            started = Task(operation: body)
        }
        let finishedFirst = state.withLock { state -> Bool in
            guard !state.finished else { return true }
            state.task = started
            return false
        }
        if finishedFirst { started.cancel() }
    }

    /// What `run` returned or threw; `CancellationError` is the launch's cancellation.
    static func outcome(of operation: Operation?, _ context: OpContext<Operation.Input>) async -> Result<
        Output, any Error
    > {
        // Taken twice only if started twice, which `launch` never does.
        guard let operation else { return .failure(OpError.cancelled) }
        do {
            return .success(try await operation.run(context.input, context: context))
        } catch is CancellationError {
            return .failure(OpError.cancelled)
        } catch {
            return .failure(error)
        }
    }
}

private struct AsyncRunState<Operation: AsyncOp> {
    /// Held from launch until the task takes it.
    var operation: Operation?
    var task: Task<Void, Never>?
    var finished = false
}
