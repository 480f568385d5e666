import Dispatch
import OperationsTestSupport
import OperationsTesting
import Testing

@testable import Operations

/// Contract corners found in review: each test failed before its fix.
struct ContractCornerTests {
    @Test func theAsyncBridgeDeliversOnceWhenAnOperationCallsOnFinishTwice() async throws {
        let diagnostics = DiagnosticsRecorder()
        let value = try await RawTwiceOp().launch(OpContext(0, environment: OpEnvironment(diagnostics: diagnostics)))
        #expect(value == 1)
        #expect(diagnostics.diagnostics.map(\.kind) == [.finishedTwice])
    }

    @Test func anAbandonedLaunchLeavesTheRegistryAndTheToken() {
        let registry = InFlightRegistry()
        let token = CancellationToken()
        let report = LaunchProbe.launch(
            AbandoningOp(), context: OpContext(1, cancellation: token, environment: OpEnvironment(inFlight: registry)))
        #expect(report.error as? OpError == .abandoned(operation: "AbandoningOp"))
        #expect(registry.entries.isEmpty)
        #expect(token.pendingHandlerCount == 0)
    }

    @Test func deadLinkedChildrenLeaveNoHandlerInTheirParent() {
        let parent = CancellationToken()
        for _ in 0..<1_000 { _ = CancellationToken(linkedTo: parent) }
        #expect(parent.pendingHandlerCount == 0)
        let live = CancellationToken(linkedTo: parent)
        #expect(parent.pendingHandlerCount == 1)
        parent.cancel()
        #expect(live.isCancelled)
    }

    @Test func handlersRunNewestFirst() {
        let token = CancellationToken()
        let order = LockedState<[Int]>([])
        for index in 0..<4 { token.onCancel { order.withLock { $0.append(index) } } }
        token.cancel()
        #expect(order.withLock { $0 } == [3, 2, 1, 0])
    }

    @Test func cancellingDuringABackoffEndsTheWaitAndDropsTheRetry() {
        let ops = ScriptedOps([.failure(.flaky)])
        let scheduler = TestScheduler()
        let token = CancellationToken()
        let scenario = Scenario<Int, Int>("Backoff") { chain in
            chain.then(
                Step(ops.make).retrying(.transient(maxAttempts: 3, backoff: Backoff(initial: .seconds(10), jitter: 0))))
        }
        let box = FinishBox<Int>()
        scenario.launch(
            OpContext(1, cancellation: token, environment: OpEnvironment(scheduler: scheduler)), onFinish: box.onFinish)
        #expect(scheduler.pendingCount == 1)
        token.cancel()
        #expect(box.first?.failure?.isCancellation == true)
        #expect(scheduler.pendingCount == 0, "the scheduled retry still holds the run")
        scheduler.advance(by: .seconds(60))
        #expect(ops.launchCount == 1)
        #expect(token.pendingHandlerCount == 0)
    }

    @Test func aScenarioReportsTheEndItDelivered() {
        let recorder = ScenarioRecorder()
        let token = CancellationToken()
        let parked = LockedState<Completion<Int>?>(nil)
        let scenario = Scenario<Int, Int>("Race") { chain in
            chain.then(Step { ManualOp { completion in parked.withLock { $0 = completion } } })
        }
        let box = FinishBox<Int>()
        scenario.launch(
            OpContext(1, cancellation: token, environment: OpEnvironment(observer: recorder)), onFinish: box.onFinish)
        token.cancel()
        parked.withLock { $0 }?.succeed(1)
        #expect(box.first?.failure?.isCancellation == true)
        #expect(
            recorder.lines.filter { $0.hasPrefix("Race ") } == [
                "Race started", "Race failed: ManualOp cancelled: the operation was cancelled",
            ])
    }

    @Test func aReplayErrorIsAFirstAttemptFailure() throws {
        struct Unreadable: StepReplaying {
            struct Damaged: Error {}
            func recordedOutput<T: Sendable>(at address: StepAddress, as type: T.Type) throws -> T? { throw Damaged() }
        }
        let report = LaunchProbe.launch(
            Scenario<Int, Int>("Replay") { chain in chain.then(Step { DoubleOp() }) },
            context: OpContext(1, environment: OpEnvironment(replay: Unreadable())))
        let failure = try #require(report.error as? StepFailure)
        #expect(failure.attempt == 1)
        #expect(!failure.description.contains("0 attempts"))
    }
}
