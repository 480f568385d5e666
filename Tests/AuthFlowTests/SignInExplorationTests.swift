import AuthFlow
import AuthFlowTesting
import Operations
import OperationsTesting
import Testing

/// Contract 16 on the sign-in: every schedule of one fault, and random ones of up to two from a
/// seed (CI runs every schedule of two faults through `opctl explore`, built for release),
/// leave every request acted on at most once and the run finished by its reruns.
struct SignInExplorationTests {
    // Each exploration runs on a thread of its own: a long one on the test pool would starve
    // the async tests.
    @Test func signInHoldsUnderEveryScheduleOfOneFaultAndRandomOnes() async {
        let explorer = FaultExplorer(maxFaults: 1, randomSchedules: 200, seed: 7, flow: SignInExploration.signIn)
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 250, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func signOutHoldsUnderEveryScheduleOfTwoFaults() async {
        let explorer = FaultExplorer(maxFaults: 2, flow: SignInExploration.signOut)
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 100, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }
}
