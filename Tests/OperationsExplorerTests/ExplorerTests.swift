import Foundation
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// The fault explorer over a small payment flow of its own: it holds when the operation sends
/// its key, and catches the flow that drops it — with the shrunk schedule that shows how.
struct ExplorerTests {
    private static func explorer(sendsKey: Bool) -> FaultExplorer<Int, Int> {
        paymentExplorer(maxFaults: 2, sendsKey: sendsKey)
    }

    @Test func aFlowThatSendsItsKeysHoldsUnderEveryScheduleOfTwoFaults() async {
        let explorer = Self.explorer(sendsKey: true)
        // On a thread of its own: a long exploration on the test pool would starve the async tests.
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 100, "\(report.schedules)")
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func aFlowThatDropsItsKeyIsCaughtWithTheShrunkScheduleAndItReplays() throws {
        let explorer = Self.explorer(sendsKey: false)
        let report = explorer.explore()
        let violation = try #require(report.violations.first, "the planted defect went unnoticed")
        #expect(violation.problems.contains { $0.contains("charge acted 2 times") }, "\(violation)")
        #expect(violation.schedule.entries.count == 1, "shrunk to one fault: \(violation.schedule)")
        #expect([.loseAnswer, .timeOut, .kill].contains(violation.schedule.entries.first?.fault))
        #expect(violation.diagram.contains("Charge"), "the run is drawn:\n\(violation.diagram)")
        // The same schedule, replayed, breaks the same way; the flow with its key does not.
        #expect(!explorer.replay(violation.schedule).violations.isEmpty)
        #expect(Self.explorer(sendsKey: true).replay(violation.schedule).violations.isEmpty)
    }
}

/// A small payment flow explored up to `maxFaults`: its one step charges with retries, sending
/// its key or, with `sendsKey` false, dropping it — then one lost answer charges twice.
func paymentExplorer(maxFaults: Int, sendsKey: Bool) -> FaultExplorer<Int, Int> {
    FaultExplorer(maxFaults: maxFaults) { world in
        let bank = ExploredService(world: world) { _, amount in amount * 10 }
        let policy = RetryPolicy(maxAttempts: 3, backoff: .immediate, relaunchesSideEffects: true) { _ in true }
        let scenario = Scenario<Int, Int>("Pay") { chain in
            chain.then(
                Step("Charge", purity: .sideEffects) { ExploredRequestOp("charge", bank, sendsKey: sendsKey) }
                    .retrying(policy))
        }
        return ExploredFlow(scenario: scenario, input: 5)
    }
}
