import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// A run killed during a wait and resumed from its journal waits only what is left of it, and
/// not at all once its deadline has passed.
@Suite struct WaitResumeTests {
    /// Launches the resend scenario with a journal and drops it during its 30 s wait after
    /// `elapsed`, as a killed process would: the journal closes, the run never finishes.
    private func killDuringTheWait(_ store: RunStore, after elapsed: Duration) throws -> RunID {
        let journal = try store.create(scenario: "Resend")
        let scheduler = TestScheduler()
        let box = FinishBox<Delivery>()
        resendScenario.launch(
            OpContext(
                Delivery(number: 1, resendAfterSeconds: 30),
                environment: OpEnvironment(scheduler: scheduler, observer: journal)),
            onFinish: box.onFinish)
        scheduler.advance(by: elapsed)
        #expect(box.count == 0, "still waiting when killed")
        try journal.close()
        return journal.runID
    }

    /// Resumes the run in a "new process" whose wall clock reads `wallClock`.
    private func resume(
        _ runID: RunID, _ store: RunStore, wallClock: Date
    ) throws -> (TestScheduler, FinishBox<Delivery>, ScenarioJournal) {
        let resumed = try store.resume(runID)
        let scheduler = TestScheduler(wallClock: wallClock)
        let box = FinishBox<Delivery>()
        resendScenario.launch(
            OpContext(
                Delivery(number: 1, resendAfterSeconds: 30),
                environment: OpEnvironment(scheduler: scheduler, observer: resumed, replay: resumed.replay)),
            onFinish: box.onFinish)
        return (scheduler, box, resumed)
    }

    @Test func aRunKilledDuringTheWaitWaitsOnlyWhatIsLeft() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let runID = try killDuringTheWait(store, after: .seconds(10))
            let record = try store.load(runID)
            #expect(record.steps.first?.outcome == .succeeded, "the deadline is journaled before the wait")
            // The process came back 18 s after the wait began: 12 s are left.
            let (scheduler, box, journal) = try resume(
                runID, store, wallClock: TestScheduler.defaultWallClock.addingTimeInterval(18))
            #expect(scheduler.requestedDelays == [.seconds(12)])
            scheduler.advance(by: .seconds(12))
            #expect(box.wait()?.success?.number == 2)
            try journal.close()
            #expect(try store.load(runID).status == .succeeded)
        }
    }

    @Test func aDeadlineAlreadyPassedIsNotWaitedForAgain() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let runID = try killDuringTheWait(store, after: .seconds(5))
            let (scheduler, box, journal) = try resume(
                runID, store, wallClock: TestScheduler.defaultWallClock.addingTimeInterval(3_600))
            #expect(box.wait()?.success?.number == 2, "no time has to pass")
            #expect(scheduler.requestedDelays.isEmpty)
            try journal.close()
        }
    }

    @Test func aFaultAroundAWaitIsRerunWithoutWaitingAgain() throws {
        // The step after the wait fails; the rerun replays the wait's deadline (passed by then)
        // and launches only the failed step.
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let ops = RecordingOps([.failure(.flaky)])
            let scenario = Scenario<Int, Int>("Around") { chain in
                chain.wait("Pause", for: .seconds(5)).then(Step("Work", ops.make))
            }
            let journal = try store.create(scenario: "Around")
            let first = TestScheduler()
            let box = FinishBox<Int>()
            scenario.launch(
                OpContext(1, environment: OpEnvironment(scheduler: first, observer: journal)), onFinish: box.onFinish)
            first.advance(by: .seconds(5))
            #expect(box.wait()?.failure != nil)
            try journal.close()

            let resumed = try store.resume(journal.runID)
            let second = TestScheduler(wallClock: TestScheduler.defaultWallClock.addingTimeInterval(60))
            let result = run(
                scenario, 1, environment: OpEnvironment(scheduler: second, observer: resumed, replay: resumed.replay))
            try resumed.close()
            #expect(result?.success == 2)
            #expect(second.requestedDelays.isEmpty, "the rerun does not wait again")
            #expect(ops.launches == [1, 1])
        }
    }

    @Test func aPollingKilledBetweenPollsGoesOnFromItsLastAnswer() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let board = SettlementBoard(pendingPolls: 2)
            let scenario = Scenario<Int, Settlement>("Settle") { chain in
                chain.then(Step(board.makeOp), repeatingEvery: .seconds(2), until: \.isSettled, atMost: 5)
            }
            let journal = try store.create(scenario: "Settle")
            let first = TestScheduler()
            let box = FinishBox<Settlement>()
            scenario.launch(
                OpContext(1, environment: OpEnvironment(scheduler: first, observer: journal)), onFinish: box.onFinish)
            first.advance(by: .seconds(2))
            #expect(board.polls == 2, "killed waiting after the second poll")
            try journal.close()

            let resumed = try store.resume(journal.runID)
            let second = TestScheduler(wallClock: TestScheduler.defaultWallClock.addingTimeInterval(3))
            let again = FinishBox<Settlement>()
            scenario.launch(
                OpContext(1, environment: OpEnvironment(scheduler: second, observer: resumed, replay: resumed.replay)),
                onFinish: again.onFinish)
            #expect(board.polls == 2, "the last answer is replayed, not asked again")
            second.advance(by: .seconds(2))
            #expect(again.wait()?.success == Settlement(polls: 3, isSettled: true))
            try resumed.close()
            #expect(try store.load(journal.runID).status == .succeeded)
        }
    }
}
