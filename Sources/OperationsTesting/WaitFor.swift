import Dispatch
import Observation
import Operations

/// A wait that ran out: what ``waitFor(_:timeout:until:)`` throws when the state never matched.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// The last value read before the timeout.
    public let lastValue: String
    /// How long the wait lasted.
    public let timeout: Duration

    /// A sentence for a test failure.
    public var description: String { "the state did not match within \(timeout); last: \(lastValue)" }
}

/// Waits on the main actor until an `@Observable` model's state matches, and returns it.
///
/// A view model answers a screen and updates its state on the main actor while the flow runs
/// elsewhere, so a test cannot read the state right after a call. This reads `read()` now and
/// again each time an observed property it touched changes (Observation's
/// `withObservationTracking`), never by polling or sleeping, and fails after `timeout` instead of
/// hanging.
///
/// ```swift
/// let state = try await waitFor({ model.state }, until: { $0 == .needsAnotherCard })
/// ```
///
/// - Parameters:
///   - read: Reads the state; runs on the main actor, and what it reads is observed.
///   - timeout: How long to wait in all.
///   - done: Whether a value is the one awaited.
/// - Returns: The first value read that satisfies `done`.
/// - Throws: ``WaitTimedOut`` when no value did before `timeout`.
@MainActor
public func waitFor<Value>(
    _ read: @escaping @MainActor () -> Value, timeout: Duration = TestTimeout.standard,
    until done: (Value) -> Bool
) async throws(WaitTimedOut) -> Value {
    let deadline = DispatchTime.now() + timeout.dispatchInterval
    while true {
        let value = read()
        if done(value) { return value }
        guard await changed(read, before: deadline) else {
            throw WaitTimedOut(lastValue: String(describing: value), timeout: timeout)
        }
    }
}

/// Whether a property `read` touches changed before `deadline` (`false` once it passed).
@MainActor
private func changed<Value>(_ read: @escaping @MainActor () -> Value, before deadline: DispatchTime) async -> Bool {
    guard DispatchTime.now() < deadline else { return false }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let once = OnceFlag()
        let resume: @Sendable (Bool) -> Void = { changed in
            if once.claim() { continuation.resume(returning: changed) }
        }
        withObservationTracking {
            _ = read()
        } onChange: {
            resume(true)
        }
        DispatchQueue.main.asyncAfter(deadline: deadline) { resume(false) }
    }
}
