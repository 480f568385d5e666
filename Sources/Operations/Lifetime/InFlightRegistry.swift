/// The launches that started and have not finished: the answer to "why did it never finish?".
///
/// Opt-in: put one in ``OpEnvironment/inFlight`` and every ``Completion`` registers itself at
/// launch and removes itself at finish. With no registry the launch path does not touch it.
public final class InFlightRegistry: Sendable {
    /// One unfinished launch.
    public struct Entry: Sendable, Hashable {
        /// Launch order within this registry.
        public let id: UInt64
        /// The operation's type name.
        public let operation: String
        /// When it was launched.
        public let launchedAt: ContinuousClock.Instant
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
    }

    private let state = LockedState(State())

    /// Creates an empty registry.
    public init() {}

    /// The unfinished launches, oldest first.
    public var entries: [Entry] {
        state.withLock { $0.entries.values.sorted { $0.id < $1.id } }
    }

    func register(operation: String) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(id: id, operation: operation, launchedAt: .now)
            return id
        }
    }

    func remove(_ id: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }
}
