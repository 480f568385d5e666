public import Operations

/// What `rerun ID --from STEP` will do again, told before anything is written or launched: the
/// steps with side effects it launches anew under new idempotency keys (a second SMS, a second
/// account), and which of them the old run left in doubt — a plain rerun would finish those
/// under their old keys, with no second effect.
///
/// ```swift
/// let plan = try record.rerunPlan(from: step, shape: onboarding.shape)
/// for address in plan.relaunched { print("launched anew: \(address.namePath)") }
/// ```
public struct RerunFromPlan: Sendable, Hashable {
    /// The first step the new run launches anew.
    public let step: StepAddress
    /// The steps with side effects the new run launches anew, as new requests with new keys,
    /// in the order a run reaches them: `step` and every step after it, nested steps included.
    public let relaunched: [StepAddress]
    /// Those of ``relaunched`` whose latest attempt in the old run is in doubt: it may have
    /// acted, and a plain rerun repeats it under its old key instead.
    public let inDoubt: [StepAddress]

    /// Whether the new run sends nothing that acts: only pure or idempotent steps are launched.
    public var isHarmless: Bool { relaunched.isEmpty }
}

extension JournalRecord {
    /// What a rerun of this run from `step` will launch anew (``RerunFromPlan``), and whether it
    /// may be made at all.
    ///
    /// - Parameters:
    ///   - step: The first step to launch anew (``StepSelector``).
    ///   - shape: The shape of the scenario that would run the new run.
    /// - Throws: ``RerunFromError/undoneBefore(_:undone:run:)`` when a step before `step` was
    ///   undone in this run: the new run would replay its output as if it still held (a
    ///   reservation already released).
    public func rerunPlan(from step: StepAddress, shape: ScenarioShape) throws(RerunFromError) -> RerunFromPlan {
        let order = StepSelector.addresses(in: shape)
        let position = order.firstIndex(of: step) ?? order.count
        let undone = undoneSteps.filter { address in
            order.firstIndex(of: address).map { $0 < position } ?? false
                && !address.path.starts(with: step.path)
        }
        if !undone.isEmpty {
            throw .undoneBefore(step.namePath, undone: undone.map(\.namePath), run: runID)
        }
        let purity = Dictionary(
            zip(order, Self.leafPurities(in: shape)).compactMap { address, purity in purity.map { (address, $0) } },
            uniquingKeysWith: { first, _ in first })
        let relaunched = order[position...].filter { purity[$0] == Purity.sideEffects.description }
        let inDoubt = relaunched.filter { self.step(at: $0)?.isInDoubt == true }
        return RerunFromPlan(step: step, relaunched: Array(relaunched), inDoubt: inDoubt)
    }

    /// The purity of each step of `shape` in the order ``StepSelector/addresses(in:)`` lists
    /// them; `nil` for a nested scenario, which acts only through its own steps.
    private static func leafPurities(in shape: ScenarioShape) -> [String?] {
        shape.steps.flatMap { step -> [String?] in
            guard let nested = step.nested else { return [step.purity] }
            return [nil] + leafPurities(in: nested)
        }
    }
}
