import Synchronization

/// A one-way switch the caller fires to cancel launches that carry it.
///
/// Operations never poll it in a loop: ``Completion`` registers for it and finishes the launch
/// with ``OpError/cancelled`` the moment it fires. Work that can stop early (a network request)
/// registers its own handler with ``onCancel(_:)``.
public final class CancellationToken: Sendable {
    private struct State {
        var cancelled = false
        var nextID: UInt64 = 0
        /// The first handler still registered, kept inline: most tokens carry one (the launch's
        /// completion), and a dictionary would allocate and hash for it.
        var first: (id: UInt64, handler: @Sendable () -> Void)?
        /// Any further handlers, by registration id.
        var more: [UInt64: @Sendable () -> Void] = [:]

        /// Every handler, in registration order, leaving none behind.
        mutating func takeAll() -> [@Sendable () -> Void] {
            // Newest first: launches nested inside others registered later, so they finish (and
            // record their finish) before the scenario around them — the order of unwinding.
            var all = more.sorted { $0.key > $1.key }.map(\.value)
            if let first { all.append(first.handler) }
            first = nil
            more.removeAll()
            return all
        }

        mutating func remove(_ id: UInt64) {
            if first?.id == id {
                first = nil
            } else {
                more.removeValue(forKey: id)
            }
        }
    }

    private let state = LockedState(State())
    private let fired = Atomic<Bool>(false)
    /// The handler a linked token keeps in its parent; written once during `init`, removed when
    /// this token goes away, so a long-lived parent does not collect handlers of dead children.
    private nonisolated(unsafe) var parentRegistration: CancellationRegistration?

    /// Creates a token that has not fired.
    public init() {}

    /// Creates a token that fires when `parent` fires, and can also be fired on its own.
    ///
    /// - Parameter parent: The token whose cancellation propagates to this one.
    public convenience init(linkedTo parent: CancellationToken?) {
        self.init()
        guard let parent else { return }
        // The registration keeps only a weak reference so a finished child is not kept alive
        // by a long-lived parent.
        parentRegistration = parent.onCancel { [weak self] in self?.cancel() }
    }

    deinit {
        parentRegistration?.cancel()
    }

    /// How many handlers wait for this token; lets tests prove that finished launches and dead
    /// linked children leave nothing behind.
    package var pendingHandlerCount: Int {
        state.withLock { ($0.first == nil ? 0 : 1) + $0.more.count }
    }

    /// Whether the token has fired.
    public var isCancelled: Bool { fired.load(ordering: .acquiring) }

    /// Fires the token: runs every registered handler once, on the calling thread, newest first.
    ///
    /// Firing twice is harmless; the second call does nothing.
    public func cancel() {
        let handlers: [@Sendable () -> Void]? = state.withLock { state in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            return state.takeAll()
        }
        guard let handlers else { return }
        fired.store(true, ordering: .releasing)
        for handler in handlers { handler() }
    }

    /// Registers work to run when the token fires.
    ///
    /// - Parameter handler: Runs once, on the thread that fires the token; runs at once, on the
    ///   calling thread, when the token has already fired.
    /// - Returns: A registration to cancel when the work no longer needs the signal.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> CancellationRegistration {
        let id: UInt64? = state.withLock { state in
            guard !state.cancelled else { return nil }
            let id = state.nextID
            state.nextID += 1
            if state.first == nil && state.more.isEmpty {
                state.first = (id, handler)
            } else {
                state.more[id] = handler
            }
            return id
        }
        guard let id else {
            handler()
            return CancellationRegistration(token: nil, id: 0)
        }
        return CancellationRegistration(token: self, id: id)
    }

    fileprivate func remove(_ id: UInt64) {
        state.withLock { $0.remove(id) }
    }
}

/// A handler registered with ``CancellationToken/onCancel(_:)``.
public struct CancellationRegistration: Sendable {
    fileprivate let token: CancellationToken?
    fileprivate let id: UInt64

    /// Removes the handler; it will not run. Does nothing after the token fired.
    public func cancel() {
        token?.remove(id)
    }
}
