public import OperationsExplorer
public import OperationsJournal

/// One flow a runner program offers to `PROGRAM explore NAME`: its name on the command line and
/// how to explore it, whatever its input and output types.
public struct Exploration: Sendable {
    /// The name `explore` takes (`auth`).
    public let name: String
    /// What the flow is, for the usage error that lists the names.
    public let summary: String
    private let body:
        @Sendable (
            _ maxFaults: Int, _ randomSchedules: Int, _ seed: UInt64, _ sealer: (any JournalSealer)?,
            _ progress: (@Sendable (ExplorationProgress) -> Void)?
        ) -> ExplorationReport

    /// Offers a flow to the explorer: `flow` builds it for one schedule over the world's
    /// services; `name` and `summary` are as their properties say.
    public init<Input: Sendable, Output: Sendable>(
        _ name: String, summary: String, flow: @escaping @Sendable (FaultWorld) -> ExploredFlow<Input, Output>
    ) {
        self.name = name
        self.summary = summary
        self.body = { maxFaults, randomSchedules, seed, sealer, progress in
            FaultExplorer(
                maxFaults: maxFaults, randomSchedules: randomSchedules, seed: seed, sealer: sealer, flow: flow
            )
            .explore(progress: progress)
        }
    }

    /// Explores the flow under every schedule of up to `maxFaults` faults, then `randomSchedules`
    /// random ones from `seed`.
    ///
    /// - Parameters:
    ///   - maxFaults: The most faults a systematic schedule injects.
    ///   - randomSchedules: How many random schedules follow the systematic ones.
    ///   - seed: The seed the random schedules are drawn from, so a run can be repeated.
    ///   - sealer: The sealer the flow's journals are created, resumed and checked with: the
    ///     program's own (``RunnerConfiguration/journalSealer``) when `explore` runs it. None by
    ///     default.
    ///   - progress: Told after each schedule how far the exploration is, one call at a time
    ///     (`FaultExplorer/explore(progress:)`); none by default.
    public func explore(
        maxFaults: Int, randomSchedules: Int, seed: UInt64, sealer: (any JournalSealer)? = nil,
        progress: (@Sendable (ExplorationProgress) -> Void)? = nil
    ) -> ExplorationReport {
        body(maxFaults, randomSchedules, seed, sealer, progress)
    }
}
