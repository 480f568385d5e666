import Dispatch
import Operations
import OperationsTesting
import Testing

/// No completion arrived within the test's timeout.
struct CompletionTimedOut: Error, CustomStringConvertible {
    let timeout: Duration
    var description: String { "no completion within \(timeout)" }
}

/// Waits for a callback-based call to complete, failing after `timeout` instead of hanging the
/// run; nothing sleeps, a Dispatch timer races the completion.
func awaitCompletion<Value: Sendable>(
    timeout: Duration = TestTimeout.standard,
    _ start: (@escaping @Sendable (Value) -> Void) -> Void
) async throws -> Value {
    let slot = LockedState<CheckedContinuation<Value, any Error>?>(nil)
    return try await withCheckedThrowingContinuation { continuation in
        slot.withLock { $0 = continuation }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            slot.withLock { $0.take() }?.resume(throwing: CompletionTimedOut(timeout: timeout))
        }
        start { value in slot.withLock { $0.take() }?.resume(returning: value) }
    }
}
