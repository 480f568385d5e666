import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-way switch the caller fires to cancel launches that carry it.
///
/// Operations never poll it in a loop: ``Completion`` registers for it and finishes the launch
/// with ``OpError/cancelled`` the moment it fires. Work that can stop early (a network request)
/// registers its own handler with ``onCancel(_:)``.
///
/// A token is one allocation: its handlers sit behind a lock of one atomic word inside the
/// object, not a `LockedState` and an `NSLock` (three more allocations and a `pthread` mutex per
/// token, which the async bridge paid on every call). The lock is held only to add, remove or
/// take handlers, never while one runs.
public final class CancellationToken: Sendable {
    /// One registered handler: a closure, or a launch's ``Completion`` held without a reference
    /// count (see ``CancellationTarget``).
    private struct Entry {
        var id: UInt64
        var handler: (@Sendable () -> Void)?
        /// Not retained: reached only under the lock (see ``CancellationTarget``).
        unowned(unsafe) var target: (any CancellationTarget)?
    }

    /// Set while a thread adds, removes or takes handlers.
    private let locked = Atomic<Bool>(false)
    private let fired = Atomic<Bool>(false)
    // Touched only under `locked`; the lock makes every access exclusive, so the run-time
    // exclusivity check would only add cost.
    @exclusivity(unchecked) private nonisolated(unsafe) var cancelled = false
    @exclusivity(unchecked) private nonisolated(unsafe) var nextID: UInt64 = 0
    /// The first handler still registered, kept inline: most tokens carry one (the launch's
    /// completion), and a dictionary would allocate and hash for it.
    @exclusivity(unchecked) private nonisolated(unsafe) var first: Entry?
    /// Any further handlers, by registration id.
    @exclusivity(unchecked) private nonisolated(unsafe) var more: [UInt64: Entry] = [:]
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
        withLock { (first == nil ? 0 : 1) + more.count }
    }

    /// Whether the token has fired.
    public var isCancelled: Bool { fired.load(ordering: .acquiring) }

    /// Fires the token: runs every registered handler once, on the calling thread, newest first.
    ///
    /// Firing twice is harmless; the second call does nothing.
    public func cancel() {
        let pending: [Pending]? = withLock {
            guard !cancelled else { return nil }
            cancelled = true
            return takeAll()
        }
        guard let pending else { return }
        fired.store(true, ordering: .releasing)
        for entry in pending {
            switch entry {
            case .handler(let handler):
                handler()
            case .target(let id):
                // Claimed only now, in its turn: a launch finished by an earlier handler (a step
                // whose cancellation ended its scenario) has removed itself by then.
                withLock { takeTarget(id) }?()
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
        guard let id = add(Entry(id: 0, handler: handler, target: nil)) else {
            handler()
            return CancellationRegistration(token: nil, id: 0)
        }
        return CancellationRegistration(token: self, id: id)
    }

    /// Registers a launch without retaining it: the target removes itself (``remove(_:)``)
    /// before it goes away, and the token reaches it only under its lock (see
    /// ``CancellationTarget``), so neither a closure nor a weak reference is allocated.
    ///
    /// - Returns: The registration id, or `nil` when the token has already fired (nothing was
    ///   registered; the caller cancels itself).
    func register(_ target: any CancellationTarget) -> UInt64? {
        add(Entry(id: 0, handler: nil, target: target))
    }

    /// Removes the handler registered under `id`; does nothing when it is gone (fired or
    /// removed). Taking the lock also waits out a firing that is reaching the target.
    func remove(_ id: UInt64) {
        withLock {
            if first?.id == id {
                first = nil
            } else if !more.isEmpty {
                more.removeValue(forKey: id)
            }
        }
    }

    // MARK: - Internals

    private func add(_ entry: Entry) -> UInt64? {
        withLock {
            guard !cancelled else { return nil }
            var entry = entry
            entry.id = nextID
            nextID += 1
            if first == nil && more.isEmpty {
                first = entry
            } else {
                more[entry.id] = entry
            }
            return entry.id
        }
    }

    /// What a firing still has to run, newest first.
    private enum Pending {
        case handler(@Sendable () -> Void)
        /// A target stays registered until its turn, so that it can still remove itself.
        case target(UInt64)
    }

    /// Every handler, in registration order reversed; closures are taken out, targets stay
    /// registered until ``takeTarget(_:)`` reaches them.
    private func takeAll() -> [Pending] {
        // Newest first: launches nested inside others registered later, so they finish (and
        // record their finish) before the scenario around them — the order of unwinding.
        var entries = more.values.sorted { $0.id > $1.id }
        if let first { entries.append(first) }
        if first?.handler != nil { first = nil }
        if !more.isEmpty { more = more.filter { $0.value.handler == nil } }
        return entries.map { entry in
            if let handler = entry.handler { return .handler(handler) }
            return .target(entry.id)
        }
    }

    /// Removes the target registered under `id` and claims its cancellation, under the lock,
    /// while the target is sure to be alive; `nil` when it removed itself first.
    private func takeTarget(_ id: UInt64) -> (@Sendable () -> Void)? {
        let entry: Entry?
        if first?.id == id {
            entry = first
            first = nil
        } else {
            entry = more.removeValue(forKey: id)
        }
        return entry?.target?.claimCancellation()
    }

    private func withLock<Result>(_ body: () -> Result) -> Result {
        lock()
        defer { locked.store(false, ordering: .releasing) }
        return body()
    }

    /// Takes the lock: one compare-and-swap when free. Held for a few dozen instructions, so a
    /// waiter retries, giving up the processor between tries rather than spinning against a
    /// holder that may be descheduled.
    private func lock() {
        while !locked.compareExchange(
            expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
        )
        .exchanged {
            sched_yield()
        }
    }
}

/// A launch registered with a token without a reference count (``Completion``).
///
/// The token calls ``claimCancellation()`` under its lock, and the target removes itself under
/// the same lock before its memory goes, so the call never reaches a freed object. (It may reach
/// one whose `deinit` has begun and waits for the lock: the call's balanced retain and release,
/// both under the lock, leave such an object as they found it, and its claim then wins over the
/// abandonment.) The method
/// claims the launch and returns the delivery to run once the lock is released; that delivery
/// must not touch the target, which may be deinitialised by then.
protocol CancellationTarget: AnyObject, Sendable {
    /// Claims the launch's finish for the cancellation; `nil` when it already finished.
    func claimCancellation() -> (@Sendable () -> Void)?
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
