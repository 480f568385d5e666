/// How long to wait before each retry: exponential growth from an initial delay up to a cap,
/// with optional jitter so that many clients do not retry in lockstep.
public struct Backoff: Sendable, Hashable {
    /// The wait before the first retry.
    public var initial: Duration
    /// The factor applied to the wait after every retry.
    public var multiplier: Double
    /// The longest wait.
    public var cap: Duration
    /// The share of each wait that is random, from 0 (none) to 1 (anywhere between 0 and the
    /// full wait).
    public var jitter: Double

    /// Creates a backoff; a `multiplier` below 1 is taken as 1 (a constant wait), `jitter` is
    /// clamped to `0...1`.
    public init(
        initial: Duration = .milliseconds(200), multiplier: Double = 2, cap: Duration = .seconds(10),
        jitter: Double = 0.2
    ) {
        self.initial = initial
        self.multiplier = max(1, multiplier)
        self.cap = cap
        self.jitter = min(1, max(0, jitter))
    }

    /// No wait between attempts.
    public static let immediate = Backoff(initial: .zero, multiplier: 1, cap: .zero, jitter: 0)

    /// The wait before retry number `retry` (1 for the first retry):
    /// `min(cap, initial × multiplier^(retry-1))`, less up to `jitter` of itself, placed by
    /// `random`, a uniform random number in `0..<1`.
    public func delay(beforeRetry retry: Int, random: Double) -> Duration {
        var grown = initial.inSeconds
        var grownFor = 1
        while grownFor < retry, grown < cap.inSeconds {
            grown *= multiplier
            grownFor += 1
        }
        let capped = min(grown, cap.inSeconds)
        let jittered = capped * (1 - jitter * min(max(random, 0), 1))
        return .nanoseconds(Int64((jittered * 1e9).rounded()))
    }
}
