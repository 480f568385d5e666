import Synchronization

/// What one launch of a scenario shares between its steps: its name, where it sits, the host's
/// observer, and the loop that keeps a long chain from growing the stack. The values between
/// steps travel through closures, not here.
///
/// Only ever the base of a launch's ``ChainLaunch``: one object per launch, not two. Not final
/// for that reason, and `@unchecked Sendable` because a non-final class cannot be checked; its
/// one mutable field is ordered by the atomic beside it.
@usableFromInline
class ScenarioRun: @unchecked Sendable {
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

    /// Creates the run of a launch at `base` (the root for a scenario launched on its own),
    /// observed since `startedAt` when an observer reads durations.
    @usableFromInline
    init(name: String, base: StepAddress, startedAt: FrozenInstant?, environment: OpEnvironment) {
        self.name = name
        self.base = base
        self.environment = environment
        self.startedAt = startedAt
    }

    /// Where a launch whose context has `scope` sits: the step it is, or the root for a
    /// scenario launched on its own.
    @usableFromInline
    static func base(of scope: ScenarioScope?) -> StepAddress {
        scope?.address ?? StepAddress(path: [])
    }

    /// When a launch in `environment` starts, for the durations its observer reads; `nil`
    /// (the clock not read) when nobody observes.
    @usableFromInline
    static func start(in environment: OpEnvironment) -> FrozenInstant? {
        environment.isObserved ? FrozenInstant(environment.scheduler.now) : nil
    }

    @usableFromInline
    func address(index: Int, name: String) -> StepAddress {
        base.appending(index: index, name: name)
    }

    /// The scope of a step of this run; its address is built when first read.
    @usableFromInline
    func scope(index: Int, name: String) -> ScenarioScope {
        ScenarioScope(base: base, index: index, name: name)
    }

    /// Now, for a duration an observer reads; `nil` when nobody observes.
    @usableFromInline
    var now: FrozenInstant? { Self.start(in: environment) }

    @usableFromInline
    func report(
        _ kind: ScenarioEvent.Kind, address: StepAddress, attempt: Int = 0, value: (any Sendable)? = nil,
        since start: FrozenInstant? = nil, purity: Purity? = nil, idempotencyKey: IdempotencyKey? = nil
    ) {
        Self.report(
            kind, scenario: name, in: environment, address: address, attempt: attempt, value: value, since: start,
            purity: purity, idempotencyKey: idempotencyKey)
    }

    /// Reports an event of scenario `scenario` to the observer of `environment`, if any: what
    /// ``report(_:address:attempt:value:since:purity:idempotencyKey:)`` does, for a caller that
    /// holds the run's parts rather than the run (the scenario's own finish, which is made
    /// before its run).
    @usableFromInline
    static func report(
        _ kind: ScenarioEvent.Kind, scenario: String, in environment: OpEnvironment, address: StepAddress,
        attempt: Int = 0, value: (any Sendable)? = nil, since start: FrozenInstant? = nil, purity: Purity? = nil,
        idempotencyKey: IdempotencyKey? = nil
    ) {
        guard let observer = environment.observer else { return }
        let duration = start.map { $0.instant.duration(to: environment.scheduler.now) }
        observer.scenario(
            ScenarioEvent(
                kind: kind, scenario: scenario, address: address, attempt: attempt, duration: duration, value: value,
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
