/// The first half of a durable wait: a step of its own whose output, the deadline on the wall
/// clock, is journaled before the wait (``DurableSleep``) and replayed by a resumed run.
final class WaitDeadlineOp<Value: Sendable>: PureOp {
    private let step: String
    private let duration: @Sendable (Value) -> Duration

    init(step: String, duration: @escaping @Sendable (Value) -> Duration) {
        self.step = step
        self.duration = duration
    }

    func launch(_ context: OpContext<Value>, onFinish: @escaping OnFinish<WaitDeadline>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let seconds = duration(context.input).inSeconds
        guard seconds >= 0 else {
            return completion.fail(WaitError.negativeDuration(step: step, seconds: seconds))
        }
        completion.succeed(WaitDeadline(from: context.environment.scheduler.wallClock, seconds: seconds))
    }
}
