/// A one-way switch the caller fires to cancel launches that carry it.
///
/// Operations never poll it in a loop: ``Completion`` registers for it and finishes the launch
/// with ``OpError/cancelled`` the moment it fires. Work that can stop early (a network request)
/// registers its own handler with ``onCancel(_:)``.
///
/// The handlers' lock is held only to add, remove or take them, never while one runs.
public final class CancellationToken: Sendable {
    /// The handlers and the ids, touched only under the lock.
    private struct Handlers {
        var cancelled = false
        var nextID: UInt64 = 0
        /// The handlers still registered, oldest first; they mostly leave newest first, so a
        /// list searched from its end finds them.
        var entries: [(id: UInt64, handler: @Sendable () -> Void)] = []
        /// The handler a linked token keeps in its parent; removed when this token goes away,
        /// so a long-lived parent does not collect handlers of dead children.
        var parentRegistration: CancellationRegistration?
    }

    private let handlers = LockedState(Handlers())

    /// Creates a token that has not fired.
    public init() {}

    /// Creates a token that fires when `parent` fires, and can also be fired on its own.
    ///
    /// - Parameter parent: The token whose cancellation propagates to this one.
    public convenience init(linkedTo parent: CancellationToken?) {
        self.init()
        guard let parent else { return }
        let registration = parent.onCancel { [weak self] in self?.cancel() }
        handlers.withLock { $0.parentRegistration = registration }
    }

    deinit {
        handlers.withLock { $0.parentRegistration }?.cancel()
    }

    /// How many handlers wait for this token; lets tests prove that finished launches and dead
    /// linked children leave nothing behind.
    package var pendingHandlerCount: Int {
        handlers.withLock { $0.entries.count }
    }

    /// Whether the token has fired.
    public var isCancelled: Bool { handlers.withLock { $0.cancelled } }

    /// Fires the token: runs every registered handler once, on the calling thread, newest first
    /// (launches nested inside others registered later, so they finish before the scenario
    /// around them, the order of unwinding).
    ///
    /// Firing twice is harmless; the second call does nothing.
    public func cancel() {
        let pending = handlers.withLock { state -> [@Sendable () -> Void]? in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            defer { state.entries = [] }
            return state.entries.reversed().map(\.handler)
        }
        for handler in pending ?? [] { handler() }
    }

    /// Registers work to run when the token fires.
    ///
    /// - Parameter handler: Runs once, on the thread that fires the token; runs at once, on the
    ///   calling thread, when the token has already fired.
    /// - Returns: A registration to cancel when the work no longer needs the signal.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> CancellationRegistration {
        let id = handlers.withLock { state -> UInt64? in
            guard !state.cancelled else { return nil }
            defer { state.nextID += 1 }
            state.entries.append((state.nextID, handler))
            return state.nextID
        }
        guard let id else {
            handler()
            return CancellationRegistration(token: nil, id: 0)
        }
        return CancellationRegistration(token: self, id: id)
    }

    /// Removes the handler registered under `id`; does nothing when it is gone (fired or
    /// removed).
    fileprivate func remove(_ id: UInt64) {
        // Taken out under the lock, released after it: a handler's captures may hold the last
        // reference to something whose `deinit` reaches this token.
        let removed = handlers.withLock { state -> (@Sendable () -> Void)? in
            guard let index = state.entries.lastIndex(where: { $0.id == id }) else { return nil }
            return state.entries.remove(at: index).handler
        }
        withExtendedLifetime(removed) {}
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
