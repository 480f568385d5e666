import Foundation

/// A test server's state and the condition that wakes its waiters on every change: a test waits
/// for what the server saw (a request, a connection closed) instead of sleeping.
final class WatchedState<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func read<Value>(_ body: (State) -> Value) -> Value {
        condition.lock()
        defer { condition.unlock() }
        return body(state)
    }

    @discardableResult
    func update<Value>(_ body: (inout State) -> Value) -> Value {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body(&state)
    }

    /// Waits until `predicate` holds or `timeout` passes; whether it holds.
    func wait(timeout: Duration, until predicate: (State) -> Bool) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(state) {
            if !condition.wait(until: deadline) { return predicate(state) }
        }
        return true
    }
}
