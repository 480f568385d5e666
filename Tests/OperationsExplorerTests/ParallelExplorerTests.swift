import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// The fault explorer reaches inside a parallel step: every schedule of one fault and random ones
/// of two (every one of two with OPCTL_STRESS=1, see ExplorationDepth) over
/// two branches that act (lost answers, outages, kills, Ctrl-C, full disks), each rerun
/// replaying the branch that finished, and no branch acts twice — while a branch that drops
/// its key is caught.
struct ParallelExplorerTests {
    /// Reserve and charge at once, each retried; `chargeSendsKey` plants the defect.
    private static func explorer(chargeSendsKey: Bool) -> FaultExplorer<Int, Int> {
        FaultExplorer(depth: .suite) { world in
            let service = ExploredService(world: world)
            let policy = RetryPolicy(maxAttempts: 3, backoff: .immediate, relaunchesSideEffects: true) { _ in true }
            let scenario = Scenario<Int, Int>("ReserveAndCharge") { chain in
                chain
                    .parallel(
                        "Both",
                        Step("Reserve", purity: .sideEffects) { ExploredRequestOp("reserve", service) }
                            .retrying(policy),
                        Step("Charge", purity: .sideEffects) {
                            ExploredRequestOp("charge", service, sendsKey: chargeSendsKey)
                        }
                        .retrying(policy)
                    )
                    .map { $0 + $1 }
            }
            return ExploredFlow(scenario: scenario, input: 5)
        }
    }

    // Each exploration runs on a thread of its own: a long one on the test pool would starve
    // the async tests.
    @Test func faultsInsideTheBranchesNeverMakeABranchActTwice() async {
        let explorer = Self.explorer(chargeSendsKey: true)
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 100, "\(report.schedules)")
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func aBranchThatDropsItsKeyIsCaught() async throws {
        let explorer = Self.explorer(chargeSendsKey: false)
        let report = await OwnThread.run { explorer.explore() }
        let violation = try #require(report.violations.first, "the planted defect in a branch went unnoticed")
        #expect(violation.problems.contains { $0.contains("charge acted 2 times") }, "\(violation)")
        #expect(violation.diagram.contains("Charge"), "the run is drawn:\n\(violation.diagram)")
    }
}
