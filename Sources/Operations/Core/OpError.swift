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

/// A domain error some of whose cases are cancellations — a request cancelled because its
/// launch was — so that the engine treats those like its own cancellation (never retried, a run
/// ended by one is cancelled or interrupted, not failed), whichever of the two finished first.
public protocol CancellationDescribing: Error {
    /// Whether this value reports a cancellation rather than a failure.
    var describesCancellation: Bool { get }
}

extension Error {
    /// Whether this error, or the error a ``StepFailure`` wraps, is a cancellation: the engine's
    /// own, Swift's `CancellationError`, a domain ``CancellationReason``, or a
    /// ``CancellationDescribing`` error that says so.
    public var isCancellation: Bool {
        if let error = self as? OpError { return error == .cancelled }
        if let failure = self as? StepFailure { return failure.error.isCancellation }
        if let error = self as? any CancellationDescribing { return error.describesCancellation }
        return self is CancellationError || self is any CancellationReason
    }
}
