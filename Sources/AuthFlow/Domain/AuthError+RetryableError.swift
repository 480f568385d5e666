public import Operations

/// Retry policies read ``AuthError/isTransient``: unreachable, timeout, a lost or cut-off answer,
/// 5xx and rate limiting are retried by
/// ``RetryPolicy/transient(maxAttempts:backoff:maxRequestedDelay:relaunchesSideEffects:)``; the
/// rest never are.
extension AuthError: RetryableError {
    /// The backend's ``retryAfter`` (a `Retry-After` on a `429` or `503`, or the envelope's
    /// `retryAfter`), so the retry waits as asked instead of being refused again at once.
    public var retryDelay: Duration? {
        // Clamped to a day: a date years ahead must not overflow, and no policy waits that long.
        retryAfter.map { .milliseconds(Int64((min($0, 86_400) * 1000).rounded(.up))) }
    }
}
