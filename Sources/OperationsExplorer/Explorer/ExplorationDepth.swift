import Foundation
public import OperationsJournal

/// How far a test suite's explorations go: a quick depth for every run of the suite, and the
/// full one when a stress variable is set.
///
/// Every schedule of two faults takes minutes for a flow of a few steps in a debug build on two
/// cores, and starves the tests running beside it; every schedule of one fault plus random
/// schedules of up to two catches most of what the full depth does in seconds. A suite picks the
/// depth once and runs the full one on demand:
///
/// ```swift
/// let depth = ExplorationDepth.full(when: "CHECKOUT_STRESS")   // CHECKOUT_STRESS=1 swift test
/// let report = FaultExplorer(depth: depth) { world in … }.explore()
/// ```
public enum ExplorationDepth: Sendable, Hashable {
    /// Every schedule of one fault, then `randomSchedules` seeded random ones of up to two.
    case quick(randomSchedules: Int = 100, seed: UInt64 = 1)
    /// Every schedule of up to two faults.
    case full

    /// ``full`` when the environment variable `variable` is `1`, otherwise ``quick(randomSchedules:seed:)``
    /// with its defaults.
    ///
    /// - Parameter variable: The variable that asks for the full depth.
    /// - Returns: The depth for this run of the suite.
    public static func full(when variable: String) -> ExplorationDepth {
        ProcessInfo.processInfo.environment[variable] == "1" ? .full : .quick()
    }
}

extension FaultExplorer {
    /// Creates an explorer that goes as deep as `depth` says.
    ///
    /// - Parameters:
    ///   - depth: How many faults a schedule has, and how many random schedules follow.
    ///   - sealer: The sealer the flow's journals are created, resumed and checked with; none by
    ///     default.
    ///   - flow: Builds the flow for one schedule over the world's services.
    public init(
        depth: ExplorationDepth, sealer: (any JournalSealer)? = nil,
        flow: @escaping @Sendable (FaultWorld) -> ExploredFlow<Input, Output>
    ) {
        switch depth {
        case .quick(let randomSchedules, let seed):
            self.init(maxFaults: 1, randomSchedules: randomSchedules, seed: seed, sealer: sealer, flow: flow)
        case .full:
            self.init(maxFaults: 2, sealer: sealer, flow: flow)
        }
    }
}
