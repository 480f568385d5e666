import AuthFlowTesting
import OperationsTesting

/// The fault explorer over the sign-in: what one explored schedule costs, and that thousands of
/// them leave memory where it was.
enum ExploreCases {
    /// `explore.auth`: `iterations` random schedules of up to two faults, each a whole run with
    /// its reruns and checks, on one thread: the cost of a schedule, not of the machine's cores.
    static let signInSchedules: @Sendable (Int) -> Void = { iterations in
        let report = FaultExplorer(
            maxFaults: 1, randomSchedules: iterations, seed: 1, workers: 1, flow: SignInExploration.signIn
        )
        .explore()
        BlackHole.consume(report.schedules)
    }

    /// `explore.memory`: resident-size growth in bytes over `schedules` random schedules, after a
    /// warm-up of 200.
    static let residentGrowth: @Sendable (Int) -> Int = { launches in
        let schedules = max(200, launches / 500)
        _ = FaultExplorer(maxFaults: 0, randomSchedules: 200, seed: 2, flow: SignInExploration.signIn).explore()
        let before = ResidentMemory.currentBytes()
        _ = FaultExplorer(maxFaults: 0, randomSchedules: schedules, seed: 3, flow: SignInExploration.signIn).explore()
        return ResidentMemory.currentBytes() - before
    }
}
