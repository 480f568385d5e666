public import Operations

/// Retry policies read ``AuthError/isTransient``: unreachable, timeout, a lost or cut-off answer,
/// 5xx and rate limiting are retried by ``RetryPolicy/transient(maxAttempts:backoff:)``; the rest never are.
extension AuthError: RetryableError {}
