/// An error that knows whether trying again can help.
///
/// Retry policies retry only transient errors by default; adopt this protocol in a domain error
/// to classify its cases (a timeout is transient, a wrong password is not).
public protocol RetryableError: Error {
    /// Whether the same launch, repeated later, may succeed.
    var isTransient: Bool { get }
}
