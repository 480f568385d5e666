import Operations
import OperationsTestSupport
import OperationsTesting

/// A one-way latch a test and a run await each other on: `wait()` returns once `open()` was
/// called, and throws `CancellationError` when the awaiting task is cancelled first.
final class AsyncGate: Sendable {
    private struct State {
        var open = false
        var waiters: [CheckedContinuation<Void, any Error>] = []
    }

    private let state = LockedState(State())

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async throws {
        let cancelled = LockedState(false)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = state.withLock { state in
                    if cancelled.withLock({ $0 }) { return .failure(CancellationError()) }
                    if state.open { return .success(()) }
                    state.waiters.append(continuation)
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            // Every waiter of this gate is resumed: tests await one run per gate.
            let waiters = state.withLock { state in
                cancelled.withLock { $0 = true }
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(throwing: CancellationError()) }
        }
    }
}

/// Doubles its input without suspending.
final class AsyncDoubleOp: AsyncOp, PureOp {
    func run(_ input: Int, context: OpContext<Int>) async throws -> Int {
        input * 2
    }
}

/// Waits for `gate`, then returns `input + 1`; opens `started` as `run` starts and `ended` when
/// it returns, however it returns, and records whether it saw its task cancelled.
final class GatedAsyncOp: AsyncOp, PureOp {
    private let gate: AsyncGate
    let started = AsyncGate()
    let ended = AsyncGate()
    private let cancelled = LockedState(false)

    init(gate: AsyncGate) {
        self.gate = gate
    }

    /// Whether `run` ended because its task was cancelled.
    var sawCancellation: Bool { cancelled.withLock { $0 } }

    func run(_ input: Int, context: OpContext<Int>) async throws -> Int {
        started.open()
        defer { ended.open() }
        do {
            try await gate.wait()
        } catch {
            cancelled.withLock { $0 = Task.isCancelled }
            throw error
        }
        return input + 1
    }
}

/// A weak reference that closures of any thread may read.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    weak let value: Object?

    init(_ value: Object) {
        self.value = value
    }
}
