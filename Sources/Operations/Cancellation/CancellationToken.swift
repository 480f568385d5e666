import Synchronization

/// A one-way switch the caller fires to cancel launches that carry it.
///
/// Operations never poll it in a loop: ``Completion`` registers for it and finishes the launch
/// with ``OpError/cancelled`` the moment it fires. Work that can stop early (a network request)
/// registers its own handler with ``onCancel(_:)``.
///
/// The handlers sit behind the package's lock (`LockedState`), held only to add, remove or
/// take handlers, never while one runs.
public final class CancellationToken: Sendable {
    /// One registered handler: a closure, or a launch's ``Completion`` held weakly (see
    /// ``CancellationTarget``).
    private struct Entry {
        var id: UInt64
        var handler: (@Sendable () -> Void)?
        /// Weak: a token that outlives a launch must not keep an abandoned one alive.
        weak var target: (any CancellationTarget)?
    }

    /// The handlers and the ids, touched only under the lock.
    private struct Handlers {
        var cancelled = false
        var nextID: UInt64 = 0
        /// The handlers still registered, oldest first. A token carries a few at a time (a
        /// scenario's launch and the step it is running, a retry's wait, a question on screen)
        /// and they mostly leave newest first, so a list searched from its end finds them.
        var entries: [Entry] = []
        /// The handler a linked token keeps in its parent; removed when this token goes away,
        /// so a long-lived parent does not collect handlers of dead children.
        var parentRegistration: CancellationRegistration?
    }

    private let handlers = LockedState(Handlers())
    private let fired = Atomic<Bool>(false)

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
    public var isCancelled: Bool { fired.load(ordering: .acquiring) }

    /// Fires the token: runs every registered handler once, on the calling thread, newest first.
    ///
    /// Firing twice is harmless; the second call does nothing.
    public func cancel() {
        let pending: [Pending]? = handlers.withLock { state in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            return Self.takeAll(&state)
        }
        guard let pending else { return }
        fired.store(true, ordering: .releasing)
        for entry in pending {
            switch entry {
            case .handler(let handler):
                handler()
            case .target(let id):
                // Taken only now, in its turn: a launch finished by an earlier handler (a step
                // whose cancellation ended its scenario) has removed itself by then. Called
                // outside the lock, holding the target, which may then finish and go away.
                handlers.withLock { Self.takeTarget(id, from: &$0) }?.tokenFired()
            }
        }
    }

    /// Registers work to run when the token fires.
    ///
    /// - Parameter handler: Runs once, on the thread that fires the token; runs at once, on the
    ///   calling thread, when the token has already fired.
    /// - Returns: A registration to cancel when the work no longer needs the signal.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> CancellationRegistration {
        guard let id = add(handler: handler, target: nil) else {
            handler()
            return CancellationRegistration(token: nil, id: 0)
        }
        return CancellationRegistration(token: self, id: id)
    }

    /// Registers a launch, held weakly, without a closure: the target removes itself
    /// (``remove(_:)``) when it finishes.
    ///
    /// - Returns: The registration id, or `nil` when the token has already fired (nothing was
    ///   registered; the caller cancels itself).
    func register(_ target: any CancellationTarget) -> UInt64? {
        add(handler: nil, target: target)
    }

    /// Removes the handler registered under `id`; does nothing when it is gone (fired or
    /// removed).
    func remove(_ id: UInt64) {
        // Taken out under the lock, released after it: a handler's captures may hold the last
        // reference to something whose `deinit` reaches this token.
        let removed = handlers.withLock { Self.take(id, from: &$0) }
        withExtendedLifetime(removed) {}
    }

    // MARK: - Internals

    /// Registers a handler or a target. The entry is made in place, under the lock: copying
    /// one copies its weak reference, which goes through the target's side table.
    private func add(handler: (@Sendable () -> Void)?, target: (any CancellationTarget)?) -> UInt64? {
        handlers.withLock { state in
            guard !state.cancelled else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.entries.append(Entry(id: id, handler: handler, target: target))
            return id
        }
    }

    /// What a firing still has to run, newest first.
    private enum Pending {
        case handler(@Sendable () -> Void)
        /// A target stays registered until its turn, so that it can still remove itself.
        case target(UInt64)
    }

    /// Every handler, in registration order reversed; closures are taken out, targets stay
    /// registered until ``takeTarget(_:from:)`` reaches them.
    private static func takeAll(_ state: inout Handlers) -> [Pending] {
        // Newest first: launches nested inside others registered later, so they finish (and
        // record their finish) before the scenario around them — the order of unwinding.
        let pending = state.entries.reversed().map { entry -> Pending in
            if let handler = entry.handler { return .handler(handler) }
            return .target(entry.id)
        }
        state.entries.removeAll { $0.handler != nil }
        return pending
    }

    /// Removes the target registered under `id` and returns it, held strongly; `nil` when it
    /// removed itself first or is already going away.
    private static func takeTarget(_ id: UInt64, from state: inout Handlers) -> (any CancellationTarget)? {
        take(id, from: &state)?.target
    }

    /// Removes the entry registered under `id`, searching from the newest; `nil` when it is gone.
    private static func take(_ id: UInt64, from state: inout Handlers) -> Entry? {
        guard let index = state.entries.lastIndex(where: { $0.id == id }) else { return nil }
        return state.entries.remove(at: index)
    }
}

/// A launch registered with a token without a closure (``Completion``), held weakly: a target
/// that is going away reads as `nil`, and its own `deinit` reports it abandoned instead.
protocol CancellationTarget: AnyObject, Sendable {
    /// Finishes the launch as cancelled, unless it already finished.
    func tokenFired()
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
