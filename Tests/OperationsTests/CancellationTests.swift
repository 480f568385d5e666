import Dispatch
import Operations
import OperationsTestSupport
import OperationsTesting
import Synchronization
import Testing

struct CancellationTests {
    @Test func cancellingFinishesTheLaunchOnceWithCancelledAndDropsTheLateFinish() throws {
        let diagnostics = DiagnosticsRecorder()
        let token = CancellationToken()
        let parked = LockedState<Completion<Int>?>(nil)
        let box = FinishBox<Int>()
        ManualOp { completion in parked.withLock { $0 = completion } }
            .launch(
                OpContext(1, cancellation: token, environment: OpEnvironment(diagnostics: diagnostics)),
                onFinish: box.onFinish)

        token.cancel()
        let completion = try #require(parked.withLock { $0 })
        completion.succeed(2)

        #expect(box.count == 1)
        #expect(box.first?.failure as? OpError == .cancelled)
        #expect(diagnostics.diagnostics.map(\.kind) == [.lateFinishDropped])
    }

    @Test func aTokenFiredBeforeLaunchFinishesTheLaunchAtOnce() {
        let token = CancellationToken()
        token.cancel()
        let report = LaunchProbe.launch(StuckOp(), context: OpContext(1, cancellation: token))
        #expect(report.finishCount == 1)
        #expect(report.error as? OpError == .cancelled)
        #expect(report.released)
    }

    @Test func cancellationRacingCompletionDeliversExactlyOneOutcome() {
        let rounds = 2_000
        let diagnostics = CountingDiagnostics()
        let environment = OpEnvironment(diagnostics: diagnostics)
        let successes = Atomic<Int>(0)
        let cancellations = Atomic<Int>(0)
        let deliveries = Atomic<Int>(0)
        for round in 0..<rounds {
            let token = CancellationToken()
            let parked = LockedState<Completion<Int>?>(nil)
            ManualOp { completion in parked.withLock { $0 = completion } }
                .launch(OpContext(round, cancellation: token, environment: environment)) { result in
                    deliveries.add(1, ordering: .relaxed)
                    switch result {
                    case .success: successes.add(1, ordering: .relaxed)
                    case .failure: cancellations.add(1, ordering: .relaxed)
                    }
                }
            let completion = parked.withLock { $0 }
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                if side == 0 { token.cancel() } else { completion?.succeed(round) }
            }
        }
        #expect(deliveries.load(ordering: .relaxed) == rounds)
        #expect(successes.load(ordering: .relaxed) + cancellations.load(ordering: .relaxed) == rounds)
        #expect(diagnostics.finishedTwice == 0)
        #expect(diagnostics.lateFinishes == cancellations.load(ordering: .relaxed))
    }

    @Test func aLinkedTokenFiresWithItsParent() {
        let parent = CancellationToken()
        let child = CancellationToken(linkedTo: parent)
        #expect(!child.isCancelled)
        parent.cancel()
        #expect(child.isCancelled)
    }

    @Test func aRemovedHandlerDoesNotRun() {
        let token = CancellationToken()
        let ran = FinishBox<Void>()
        let registration = token.onCancel { ran.onFinish(.success(())) }
        registration.cancel()
        token.cancel()
        #expect(ran.count == 0)
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
}
