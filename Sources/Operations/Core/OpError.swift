/// The ways a launch ends that belong to the engine rather than to an operation's domain.
public enum OpError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The context's cancellation token fired before the operation finished.
    case cancelled
    /// The context's deadline passed before the operation finished.
    case timedOut
    /// The operation dropped its ``Completion`` without ever finishing (a bug in the operation).
    case abandoned(operation: String)

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        switch self {
        case .cancelled: "the operation was cancelled"
        case .timedOut: "the operation did not finish before its deadline"
        case .abandoned(let operation): "\(operation) was released without finishing (a bug in \(operation))"
        }
    }
}

/// A domain error that means "the user chose to stop" (declined the terms, closed the screen),
/// so the engine treats it like a cancellation: never retried, reported as cancelled.
public protocol CancellationReason: Error {}

extension Error {
    /// Whether this error, or the error a ``StepFailure`` wraps, is a cancellation: the engine's
    /// own, Swift's `CancellationError`, or a domain ``CancellationReason``.
    public var isCancellation: Bool {
        if let error = self as? OpError { return error == .cancelled }
        if let failure = self as? StepFailure { return failure.error.isCancellation }
        return self is CancellationError || self is any CancellationReason
    }
}
