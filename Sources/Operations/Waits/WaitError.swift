/// Why a durable wait or a polled step ended the scenario instead of letting it go on.
public enum WaitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The wait's duration, computed from the scenario's value, was negative: a backend that
    /// answers "resend after -5 s" is broken, and waiting zero would hide it.
    case negativeDuration(step: String, seconds: Double)
    /// A polled step never said it was done within its polls.
    case stillNotDone(step: String, polls: Int)
    /// A polled step was still not done when its overall limit, counted on the wall clock from
    /// its first poll in any session of the run, ran out.
    case gaveUp(step: String, after: Duration, polls: Int)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .negativeDuration(let step, let seconds):
            "\(step) was asked to wait a negative time (\(seconds) s)"
        case .stillNotDone(let step, let polls):
            "\(step) was still not done after \(polls) poll\(polls == 1 ? "" : "s")"
        case .gaveUp(let step, let limit, let polls):
            "\(step) was still not done \(WaitDeadline.describe(seconds: limit.inSeconds)) after its first poll "
                + "(\(polls) poll\(polls == 1 ? "" : "s")); it gave up"
        }
    }
}
