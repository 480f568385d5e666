import Foundation
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// A polled step is launched again, after its interval, until its output says it is done.
@Suite struct PollingTests {
    private func polling(_ board: SettlementBoard, atMost polls: Int = 5) -> Scenario<Int, Settlement> {
        Scenario("Settle") { chain in
            chain.then(Step(board.makeOp), repeatingEvery: .seconds(2), until: \.isSettled, atMost: polls)
        }
    }

    @Test func pollsUntilSettled() throws {
        let board = SettlementBoard(pendingPolls: 2)
        let scheduler = TestScheduler()
        let recorder = ScenarioRecorder()
        let box = FinishBox<Settlement>()
        polling(board).launch(
            OpContext(1, environment: OpEnvironment(scheduler: scheduler, observer: recorder)), onFinish: box.onFinish)
        #expect(board.polls == 1)
        scheduler.advance(by: .seconds(2))
        #expect(board.polls == 2)
        scheduler.advance(by: .seconds(2))
        #expect(box.wait()?.success == Settlement(polls: 3, isSettled: true))
        #expect(scheduler.requestedDelays == [.seconds(2), .seconds(2)])
        #expect(recorder.stepLines.filter { $0.hasSuffix("launched #1") }.count == 3, "each poll is journaled")
    }

    @Test func givesUpAfterItsLimitWithATypedError() throws {
        let board = SettlementBoard(pendingPolls: 100)
        let scheduler = TestScheduler()
        let box = FinishBox<Settlement>()
        polling(board, atMost: 3).launch(
            OpContext(1, environment: OpEnvironment(scheduler: scheduler)), onFinish: box.onFinish)
        scheduler.advance(by: .seconds(10))
        let failure = try #require(box.wait()?.failure as? StepFailure)
        #expect(failure.error as? WaitError == .stillNotDone(step: "SettlementOp", polls: 3))
        #expect("\(failure.error)" == "SettlementOp was still not done after 3 polls")
        #expect(board.polls == 3)
    }

    @Test func cancellationBetweenPollsEndsThePolling() throws {
        let board = SettlementBoard(pendingPolls: 100)
        let scheduler = TestScheduler()
        let token = CancellationToken()
        let box = FinishBox<Settlement>()
        polling(board).launch(
            OpContext(1, cancellation: token, environment: OpEnvironment(scheduler: scheduler)),
            onFinish: box.onFinish)
        token.cancel()
        #expect(try #require(box.wait()?.failure).isCancellation)
        #expect(board.polls == 1)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aPollingWithoutPollsIsRefusedBeforeAnythingLaunches() throws {
        let board = SettlementBoard(pendingPolls: 0)
        let error = try #require(
            run(polling(board, atMost: 0), 1, environment: OpEnvironment())?.failure as? ScenarioDefinitionError)
        #expect(error == .noPolls(step: "SettlementOp", polls: 0))
        #expect(board.polls == 0)
    }
}
