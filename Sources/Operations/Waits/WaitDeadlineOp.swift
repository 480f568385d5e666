/// The first half of a durable wait: sets its deadline on the wall clock, acting on nothing.
///
/// A step of its own, so that its output — the deadline — is journaled before the wait begins
/// and replayed when a run killed during the wait is resumed: the resumed run waits until the
/// same deadline, not for the whole duration again. The second half, the wait itself, is the
/// chain's (``DurableSleep``).
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
