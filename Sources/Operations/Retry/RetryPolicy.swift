/// When a failed step of a scenario is launched again, and after how long.
///
/// A policy is a value: build it once and attach it to steps with ``Step/retrying(_:)``. Only
/// errors the policy calls transient are retried; cancellation and timeouts of the whole launch
/// never are. Steps with side effects are retried only when ``relaunchesSideEffects`` says so.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included; 1 means never retry.
    public var maxAttempts: Int
    /// The waits between attempts.
    public var backoff: Backoff
    /// The longest wait an error may ask for with its ``RetryableError/retryDelay``: beyond it,
    /// the retry comes after this long (and the error, when it comes again, says when to try).
    public var maxRequestedDelay: Duration
    /// Whether an error is worth another attempt.
    public var isTransient: @Sendable (any Error) -> Bool
    /// Whether a step with side effects may be retried at all.
    public var relaunchesSideEffects: Bool

    /// Creates a policy; by default only the errors a ``RetryableError`` calls transient are
    /// retried, and only steps that relaunch freely.
    public init(
        maxAttempts: Int,
        backoff: Backoff = Backoff(),
        maxRequestedDelay: Duration = .seconds(60),
        relaunchesSideEffects: Bool = false,
        isTransient: @escaping @Sendable (any Error) -> Bool = RetryPolicy.isTransientByDefault
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.backoff = backoff
        self.maxRequestedDelay = max(.zero, maxRequestedDelay)
        self.relaunchesSideEffects = relaunchesSideEffects
        self.isTransient = isTransient
    }

    /// One attempt, no retry.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// Retries transient errors up to `maxAttempts` attempts in all; a step with side effects
    /// too when `relaunchesSideEffects` — right when its requests carry the attempt's
    /// idempotency key, so a repeat cannot act twice.
    public static func transient(
        maxAttempts: Int = 3, backoff: Backoff = Backoff(), maxRequestedDelay: Duration = .seconds(60),
        relaunchesSideEffects: Bool = false
    ) -> RetryPolicy {
        RetryPolicy(
            maxAttempts: maxAttempts, backoff: backoff, maxRequestedDelay: maxRequestedDelay,
            relaunchesSideEffects: relaunchesSideEffects)
    }

    /// The wait before retry number `retry` (from 1) after `error`: the backoff's, or what the
    /// error asked for (``RetryableError/retryDelay``) when that is longer, up to
    /// ``maxRequestedDelay``.
    ///
    /// A scenario's steps wait this long; an operation that retries a request itself should too.
    /// `random`, a uniform random number in `0..<1`, places the backoff's jitter.
    public func delay(beforeRetry retry: Int, after error: any Error, random: Double) -> Duration {
        let backedOff = backoff.delay(beforeRetry: retry, random: random)
        guard let asked = (error as? any RetryableError)?.retryDelay, asked > backedOff else { return backedOff }
        return max(backedOff, min(asked, maxRequestedDelay))
    }

    /// The default classification: a ``RetryableError`` says for itself; the engine's own
    /// cancellation, timeout and abandonment are never transient; anything else is permanent.
    public static let isTransientByDefault: @Sendable (any Error) -> Bool = { error in
        (error as? any RetryableError)?.isTransient ?? false
    }

    /// Whether attempt number `attempt` (from 1) that failed with `error` is worth another, if
    /// the step's purity allows it (``relaunchesSideEffects``).
    func retries(after attempt: Int, of error: any Error) -> Bool {
        attempt < maxAttempts && !(error is OpError) && !error.isCancellation && isTransient(error)
    }
}
