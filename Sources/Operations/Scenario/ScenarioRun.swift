import Synchronization

/// What one launch of a scenario shares between its steps: its name, where it sits, the host's
/// observer, and the loop that keeps a long chain from growing the stack. The values between
/// steps travel through closures, not here.
@usableFromInline
final class ScenarioRun: Sendable {
    @usableFromInline let name: String
    @usableFromInline let base: StepAddress
    @usableFromInline let environment: OpEnvironment
    @usableFromInline let startedAt: FrozenInstant?
    /// Whether an observer receives events: without one, nothing reads step addresses or times.
    @usableFromInline var isObserved: Bool { environment.isObserved }

    /// How many links of a chain run nested before one hands off through ``handOff(_:)``. Small
    /// enough that 32 links of nested frames fit easily in a 512 KiB stack (a secondary thread
    /// on iOS) in a debug build; large enough that a usual scenario never pays for a hand-off.
    @usableFromInline static let handOffInterval = 32
    /// The hand-off loop: 0 idle, 1 a loop is running a piece of work, 2 that work handed off
    /// another piece (in ``pendingWork``) before returning.
    private let loop = Atomic<Int>(0)
    /// The work a hand-off left for the running loop; written before `loop` turns 2 and read
    /// after, so the atomic orders every access. One slot is enough: a run's links follow one
    /// another, so at most one hand-off is waiting at any time.
    private nonisolated(unsafe) var pendingWork: (@Sendable () -> Void)?

    /// Creates the run of a launch whose context has `scope` (`nil` for a scenario launched
    /// on its own) and `environment`. Not generic over the input: a generic initialiser looked
    /// up the context type's metadata on every launch.
    @usableFromInline
    init(name: String, scope: ScenarioScope?, environment: OpEnvironment) {
        self.name = name
        self.base = scope?.address ?? StepAddress(path: [])
        self.environment = environment
        // Reading the clock is skipped when nobody observes durations.
        self.startedAt = environment.isObserved ? FrozenInstant(environment.scheduler.now) : nil
    }

    func address(index: Int, name: String) -> StepAddress {
        base.appending(index: index, name: name)
    }

    /// The scope of a step of this run; its address is built when first read.
    @usableFromInline
    func scope(index: Int, name: String) -> ScenarioScope {
        ScenarioScope(base: base, index: index, name: name)
    }

    @usableFromInline
    var now: FrozenInstant? {
        isObserved ? FrozenInstant(environment.scheduler.now) : nil
    }

    @usableFromInline
    func report(
        _ kind: ScenarioEvent.Kind, address: StepAddress, attempt: Int = 0, value: (any Sendable)? = nil,
        since start: FrozenInstant? = nil, purity: Purity? = nil, idempotencyKey: IdempotencyKey? = nil
    ) {
        guard let observer = environment.observer else { return }
        let duration = start.map { $0.instant.duration(to: environment.scheduler.now) }
        observer.scenario(
            ScenarioEvent(
                kind: kind, scenario: name, address: address, attempt: attempt, duration: duration, value: value,
                purity: purity, idempotencyKey: idempotencyKey))
    }

    /// Runs `work` in constant stack depth across the run: when a loop of this run is already
    /// further down some stack (the chain got here synchronously from it), the work is left to
    /// that loop and this call returns, unwinding everything between; otherwise this call
    /// becomes the loop. A chain whose operations all finish inside their launch therefore still
    /// finishes before the scenario's launch returns.
    @usableFromInline
    func handOff(_ work: @escaping @Sendable () -> Void) {
        pendingWork = work
        if loop.compareExchange(expected: 1, desired: 2, ordering: .acquiringAndReleasing).exchanged { return }
        while let next = pendingWork {
            pendingWork = nil
            loop.store(1, ordering: .releasing)
            next()
            // Still 1: nothing was handed off while it ran; the chain goes on elsewhere, later.
            if loop.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged { return }
            loop.store(0, ordering: .releasing)
        }
    }
}
