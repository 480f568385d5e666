import Synchronization

/// The attempts an operation made inside one launch of its step, as it reported them
/// (``OpContext/reportRetry(of:after:took:retryingIn:purity:)``): the step's failure then counts
/// every attempt, its own retries included, and its last attempt is measured from its own start.
final class InnerAttempts: Sendable {
    private let latest = Mutex<(attempt: Int, since: ContinuousClock.Instant?)>((1, nil))

    /// Notes that attempt `attempt` begins at `since`.
    func begin(_ attempt: Int, at since: ContinuousClock.Instant?) {
        latest.withLock { $0 = (attempt, since) }
    }

    /// The latest attempt the operation began, from 1, and when (`nil`: with the launch).
    var current: (attempt: Int, since: ContinuousClock.Instant?) { latest.withLock { $0 } }
}
