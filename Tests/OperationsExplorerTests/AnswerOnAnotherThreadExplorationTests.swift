import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// A flow whose answers come back on another thread — a person answering through a
/// `ScreenPrompt`, delivered on a global queue, before each request — explores like any: the
/// explorer's driver wakes when that thread schedules work or finishes the flow, never mistakes
/// the hop for a flow stuck on nothing, and every invariant holds.
struct AnswerOnAnotherThreadExplorationTests {
    /// Asks the person for the amount, who answers at once; the answer arrives on a global queue.
    final class AskAmountOp: Op {
        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            ScreenPrompt<Int>(for: context) { completion.finish($0) }.answer(context.input * 2)
        }
    }

    @Test func answersFromAnotherThreadNeverLookStuckAndNothingActsTwice() async {
        let explorer = FaultExplorer(maxFaults: 1, randomSchedules: 20, seed: 5) { world in
            let bank = ExploredService(world: world)
            let policy = RetryPolicy(maxAttempts: 3, backoff: .immediate, relaunchesSideEffects: true) { _ in true }
            let scenario = Scenario<Int, Int>("AskAndPay") { chain in
                chain
                    .then(Step("AskAmount", purity: .pure) { AskAmountOp() })
                    .then(Step("Charge", purity: .sideEffects) { ExploredRequestOp("charge", bank) }.retrying(policy))
                    .then(Step("AskTip", purity: .pure) { AskAmountOp() })
                    .then(Step("Tip", purity: .sideEffects) { ExploredRequestOp("tip", bank) }.retrying(policy))
            }
            return ExploredFlow(scenario: scenario, input: 3)
        }
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 30, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }
}
