import Operations
import OperationsTestSupport
import Testing

/// A failure handler that asks the person learns of the scenario's cancellation, and the step
/// ends as cancelled without waiting for its decision.
struct FailureHandlerCancellationTests {
    @Test func cancellationWhileTheHandlerDecidesFinishesAtOnceAndTellsTheHandler() throws {
        let ops = ScriptedOps([.failure(.broken)])
        let screenClosed = LockedState(false)
        let pendingDecision = LockedState<(@Sendable (FailureDecision<Int, Int>) -> Void)?>(nil)
        let scenario = Scenario<Int, Int>("Asks") { chain in
            chain.then(
                Step(ops.make).onFailure { failure, decide in
                    // The "screen" stays open until the person answers or the run is cancelled.
                    _ = failure.cancellation?.onCancel { screenClosed.withLock { $0 = true } }
                    pendingDecision.withLock { $0 = decide }
                })
        }
        let token = CancellationToken()
        let box = FinishBox<Int>()
        scenario.launch(OpContext(1, cancellation: token), onFinish: box.onFinish)
        #expect(box.count == 0, "the handler has not decided yet")

        token.cancel()
        #expect(box.count == 1)
        let failure = try #require(box.first?.failure as? StepFailure)
        #expect(failure.rootCause as? OpError == .cancelled)
        #expect(screenClosed.withLock { $0 })

        let late = try #require(pendingDecision.withLock { $0 })
        late(.recover(9))
        #expect(box.count == 1, "a late decision is dropped")
        #expect(ops.launchCount == 1)
    }

    @Test func aDecisionBeforeCancellationStands() {
        let ops = ScriptedOps([.failure(.broken)])
        let scenario = Scenario<Int, Int>("Asks") { chain in
            chain.then(Step(ops.make).onFailure { _, decide in decide(.recover(9)) })
        }
        let token = CancellationToken()
        let box = FinishBox<Int>()
        scenario.launch(OpContext(1, cancellation: token), onFinish: box.onFinish)
        token.cancel()
        #expect(box.count == 1)
        #expect(box.first?.success == 9)
    }
}
