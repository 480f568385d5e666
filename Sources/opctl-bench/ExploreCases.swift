import AuthFlowTesting
import OperationsTesting

/// The fault explorer over the sign-in: what one explored schedule costs, and that thousands of
/// them leave memory where it was.
enum ExploreCases {
    static let all = [
        // Random schedules on one thread: the cost of a schedule, not of the machine's cores.
        BenchCase.timed(
            "explore.auth", "one fault schedule of the sign-in explored: every session, rerun and check"
        ) { iterations in
            let report = FaultExplorer(
                maxFaults: 1, randomSchedules: iterations, seed: 1, workers: 1, flow: SignInExploration.signIn
            )
            .explore()
            BlackHole.consume(report.schedules)
        },
        // After a warm-up of 200 schedules.
        BenchCase(
            id: "explore.memory",
            summary: "resident-size growth over 2,000 explored sign-in schedules (skipped by --quick)",
            reference: nil, targets: [.bytesBelow(1_000_000)],
            measure: .residentGrowth { launches in
                let schedules = max(200, launches / 500)
                _ = FaultExplorer(maxFaults: 0, randomSchedules: 200, seed: 2, flow: SignInExploration.signIn).explore()
                let before = ResidentMemory.currentBytes()
                _ = FaultExplorer(maxFaults: 0, randomSchedules: schedules, seed: 3, flow: SignInExploration.signIn)
                    .explore()
                return ResidentMemory.currentBytes() - before
            }
        ).slow(),
    ]
}
