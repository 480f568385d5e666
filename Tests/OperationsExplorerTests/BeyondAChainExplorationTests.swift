import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// Never twice while undoing: the fault explorer runs an undoing under every schedule of one
/// fault and random ones of two (every one of two with OPCTL_STRESS=1, see ExplorationDepth) —
/// lost answers, outages, kills, full disks inside the compensation — and finds no
/// request acted on twice, no run left unfinished and nothing left reserved
/// (ParallelExplorerTests does the same inside a parallel step).
struct BeyondAChainExplorationTests {
    /// Always refuses, for good: the flow must end failed and undone.
    final class DeclineOp: Op {
        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            Completion(retaining: self, context: context, onFinish: onFinish).fail(ExploredService.Declined())
        }
    }

    private static let retry = RetryPolicy(maxAttempts: 3, backoff: .immediate, relaunchesSideEffects: true) { _ in
        true
    }

    private static func step(_ kind: String, _ service: ExploredService) -> Step<Int, Int> {
        Step(kind) { ExploredRequestOp(kind, service) }.retrying(retry)
    }

    @Test func anUndoingReleasesOnceUnderEveryScheduleOfTwoFaults() async {
        let explorer = FaultExplorer(depth: .suite) { world in
            let service = ExploredService(world: world)
            let scenario = Scenario<Int, Int>("Undone") { chain in
                chain
                    .then(Self.step("reserve", service).compensated(by: Self.step("release", service)))
                    .then(Step("Decline", purity: .sideEffects) { DeclineOp() })
            }
            return ExploredFlow(
                scenario: scenario, input: 1,
                finishedWhen: { result in
                    guard case .failure(let error) = result, let cause = (error as? StepFailure)?.rootCause else {
                        return false
                    }
                    // A rerun fails the step again with the error its journal recorded.
                    return cause is ExploredService.Declined || (cause as? RecordedError)?.description == "declined"
                },
                finalCheck: {
                    service.holdings.isEmpty ? nil : "left reserved: \(service.holdings.sorted())"
                })
        }
        // On a thread of its own: a long exploration on the test pool would starve the async tests.
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 100, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }
}
