/// What one launch of a scenario shares between its steps: its name, where it sits, and the
/// host's observer. Immutable; the values between steps travel through closures, not here.
@usableFromInline
final class ScenarioRun: Sendable {
    @usableFromInline let name: String
    let base: StepAddress
    @usableFromInline let environment: OpEnvironment
    let startedAt: ContinuousClock.Instant?
    /// Whether an observer receives events: without one, nothing reads step addresses or times.
    @usableFromInline let isObserved: Bool

    init(name: String, context: OpContext<some Sendable>) {
        self.name = name
        self.base = context.scope?.address ?? StepAddress(path: [])
        self.environment = context.environment
        self.isObserved = context.environment.observer != nil
        // Reading the clock is skipped when nobody observes durations.
        self.startedAt = context.environment.observer == nil ? nil : context.environment.scheduler.now
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
    var now: ContinuousClock.Instant? {
        isObserved ? environment.scheduler.now : nil
    }

    @usableFromInline
    func report(
        _ kind: ScenarioEvent.Kind, address: StepAddress, attempt: Int = 0, value: (any Sendable)? = nil,
        since start: ContinuousClock.Instant? = nil, purity: Purity? = nil, idempotencyKey: IdempotencyKey? = nil
    ) {
        guard let observer = environment.observer else { return }
        let duration = start.map { $0.duration(to: environment.scheduler.now) }
        observer.scenario(
            ScenarioEvent(
                kind: kind, scenario: name, address: address, attempt: attempt, duration: duration, value: value,
                purity: purity, idempotencyKey: idempotencyKey))
    }
}
