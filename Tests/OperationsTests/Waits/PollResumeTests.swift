import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// Contract 18: the wait between polls survives a restart — a resumed run waits only what is
/// left of it — `atMost` counts every poll of the step across sessions, and an overall limit
/// runs on the wall clock from the first poll of the first session.
@Suite struct PollResumeTests {
    private func settle(
        _ board: SettlementBoard, every interval: Duration, atMost polls: Int, givingUpAfter limit: Duration? = nil
    ) -> Scenario<Int, Settlement> {
        Scenario("Settle") { chain in
            chain.then(
                Step(board.makeOp), repeatingEvery: interval, until: \.isSettled, atMost: polls, givingUpAfter: limit)
        }
    }

    /// One process's session of the run: launched (or resumed) with a scheduler whose wall
    /// clock reads `wallClock`, driven for `drive`, then killed — its journal closed as a dying
    /// process's would be — unless it finished first.
    private func session(
        _ scenario: Scenario<Int, Settlement>, _ journal: ScenarioJournal, wallClock: Date, resumed: Bool,
        drive: Duration
    ) throws -> (scheduler: TestScheduler, result: Result<Settlement, any Error>?) {
        let scheduler = TestScheduler(wallClock: wallClock)
        let box = FinishBox<Settlement>()
        let environment = OpEnvironment(
            scheduler: scheduler, observer: journal, replay: resumed ? journal.replay : nil)
        scenario.launch(OpContext(1, environment: environment), onFinish: box.onFinish)
        scheduler.advance(by: drive)
        try journal.close()
        return (scheduler, box.first)
    }

    private let start = TestScheduler.defaultWallClock

    @Test func aRunKilledTenMinutesIntoAThirtyMinuteIntervalWaitsTwentyWhenRerun() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let board = SettlementBoard(pendingPolls: 1)
            let scenario = settle(board, every: .seconds(30 * 60), atMost: 5)
            let journal = try store.create(scenario: scenario)
            let first = try session(scenario, journal, wallClock: start, resumed: false, drive: .seconds(10 * 60))
            #expect(first.result == nil && board.polls == 1, "killed ten minutes into the wait after poll 1")
            let progress = try #require(try store.load(journal.runID).pollProgress.values.first)
            #expect(progress.polls == 1)
            #expect(progress.nextPoll?.until == start.addingTimeInterval(30 * 60), "the deadline is on disk")

            let resumed = try store.resume(journal.runID, scenario: scenario)
            let scheduler = TestScheduler(wallClock: start.addingTimeInterval(10 * 60))
            let box = FinishBox<Settlement>()
            scenario.launch(
                OpContext(
                    1, environment: OpEnvironment(scheduler: scheduler, observer: resumed, replay: resumed.replay)),
                onFinish: box.onFinish)
            #expect(scheduler.requestedDelays == [.seconds(20 * 60)], "only what is left of the wait")
            #expect(board.polls == 1, "the last answer is not asked again, nor taken for a new one")
            scheduler.advance(by: .seconds(20 * 60 - 1))
            #expect(board.polls == 1)
            scheduler.advance(by: .seconds(1))
            #expect(box.wait()?.success == Settlement(polls: 2, isSettled: true))
            try resumed.close()
        }
    }

    @Test func aRunRerunAfterItsPollWasDueDoesNotWaitAgain() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let board = SettlementBoard(pendingPolls: 1)
            let scenario = settle(board, every: .seconds(5), atMost: 5)
            let journal = try store.create(scenario: scenario)
            _ = try session(scenario, journal, wallClock: start, resumed: false, drive: .seconds(1))
            let resumed = try store.resume(journal.runID, scenario: scenario)
            let later = try session(
                scenario, resumed, wallClock: start.addingTimeInterval(60), resumed: true, drive: .zero)
            #expect(later.result?.success == Settlement(polls: 2, isSettled: true), "polled at once")
            #expect(later.scheduler.requestedDelays.isEmpty)
        }
    }

    @Test func atMostCountsEveryPollOfTheStepAcrossSessions() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let board = SettlementBoard(pendingPolls: 100)
            let scenario = settle(board, every: .seconds(60), atMost: 3)
            let journal = try store.create(scenario: scenario)
            // Each session makes one poll and is killed in the wait after it.
            var session1 = try session(scenario, journal, wallClock: start, resumed: false, drive: .seconds(30))
            #expect(session1.result == nil)
            for restart in 1...2 {
                let resumed = try store.resume(journal.runID, scenario: scenario)
                session1 = try session(
                    scenario, resumed, wallClock: start.addingTimeInterval(Double(restart) * 60), resumed: true,
                    drive: .seconds(30))
            }
            let failure = try #require(session1.result?.failure as? StepFailure)
            #expect(failure.error as? WaitError == .stillNotDone(step: "SettlementOp", polls: 3))
            #expect(board.polls == 3, "three polls in all, not three a session")
        }
    }

    @Test func anOverallLimitHoldsAcrossARestartAndEndsWithATypedError() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let board = SettlementBoard(pendingPolls: 100)
            let scenario = settle(board, every: .seconds(20 * 60), atMost: 1_000, givingUpAfter: .seconds(3_600))
            let journal = try store.create(scenario: scenario)
            let first = try session(scenario, journal, wallClock: start, resumed: false, drive: .seconds(50 * 60))
            #expect(first.result == nil)
            #expect(board.polls == 3, "polls at 0, 20 and 40 minutes")

            // Restarted three hours after the polling began: one last poll, then it gives up.
            let resumed = try store.resume(journal.runID, scenario: scenario)
            let later = try session(
                scenario, resumed, wallClock: start.addingTimeInterval(3 * 3_600), resumed: true, drive: .zero)
            let failure = try #require(later.result?.failure as? StepFailure)
            #expect(failure.error as? WaitError == .gaveUp(step: "SettlementOp", after: .seconds(3_600), polls: 4))
            #expect(
                "\(failure.error)" == "SettlementOp was still not done 1 h after its first poll (4 polls); it gave up")
            #expect(board.polls == 4)
        }
    }

    @Test func noWaitGoesPastTheLimitWhereOneLastPollIsMade() {
        let board = SettlementBoard(pendingPolls: 100)
        let scheduler = TestScheduler()
        let box = FinishBox<Settlement>()
        settle(board, every: .seconds(25 * 60), atMost: 100, givingUpAfter: .seconds(3_600)).launch(
            OpContext(1, environment: OpEnvironment(scheduler: scheduler)), onFinish: box.onFinish)
        scheduler.advance(by: .seconds(3_600))
        #expect(scheduler.requestedDelays == [.seconds(25 * 60), .seconds(25 * 60), .seconds(10 * 60)])
        #expect(board.polls == 4)
        #expect(
            (box.wait()?.failure as? StepFailure)?.error as? WaitError
                == .gaveUp(step: "SettlementOp", after: .seconds(3_600), polls: 4))
    }

    @Test func aLimitOfZeroOrLessIsADefinitionError() {
        let box = FinishBox<Settlement>()
        settle(SettlementBoard(pendingPolls: 0), every: .seconds(1), atMost: 3, givingUpAfter: .zero).launch(
            OpContext(1), onFinish: box.onFinish)
        #expect(
            box.wait()?.failure as? ScenarioDefinitionError == .nonPositiveLimit(step: "SettlementOp", seconds: 0))
    }
}
