import Foundation
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// Any `Clock` drives the engine's time, and the test scheduler is a `Clock`.
// A bound on a hang only, as long as `TestTimeout.standard`: a loaded machine may hold a test's
// flow off for more than a minute without anything being wrong.
@Suite(.timeLimit(.minutes(10)))
struct ClockTests {
    @Test func aContinuousClockDrivesADeadline() async throws {
        let environment = OpEnvironment(scheduler: ClockScheduler(ContinuousClock()))
        let operation = GatedAsyncOp(gate: AsyncGate())
        let context = OpContext(1, environment: environment).withTimeout(.milliseconds(20))
        await #expect(throws: OpError.timedOut) { try await operation.launch(context) }
        try await operation.ended.wait()
        #expect(operation.sawCancellation)
    }

    @Test func aTestClockDrivesADeadlineThroughTheAdapter() async throws {
        let clock = TestScheduler()
        let environment = OpEnvironment(scheduler: ClockScheduler(clock))
        let finished = FinishBox<Int>()
        StuckOp().launch(OpContext(1, environment: environment).withTimeout(.seconds(3)), onFinish: finished.onFinish)
        try await clock.waitForPendingWork()
        #expect(clock.requestedDelays == [.seconds(3)])
        clock.advance(by: .seconds(2))
        #expect(finished.count == 0)
        clock.advance(by: .seconds(1))
        #expect(finished.wait()?.failure as? OpError == .timedOut)
    }

    @Test func theAdaptersTimeMovesWithItsClock() {
        let clock = TestScheduler()
        let scheduler = ClockScheduler(clock, wallClock: TestScheduler.defaultWallClock)
        let before = scheduler.now
        clock.advance(by: .seconds(90))
        #expect(before.duration(to: scheduler.now) == .seconds(90))
        #expect(scheduler.wallClock == TestScheduler.defaultWallClock.addingTimeInterval(90))
    }

    @Test func cancellingScheduledWorkCancelsItsSleep() async throws {
        let clock = TestScheduler()
        let scheduled = ClockScheduler(clock).schedule(after: .seconds(1)) {}
        try await clock.waitForPendingWork()
        scheduled.cancel()
        #expect(clock.pendingCount == 0)
    }

    @Test func codeWrittenForAnyClockRunsOnTheTestScheduler() async throws {
        func remind(after delay: Duration, on clock: some Clock<Duration>) async throws -> String {
            try await clock.sleep(for: delay)
            return "time's up"
        }
        let clock = TestScheduler()
        let reminder = Task { try await remind(after: .seconds(30), on: clock) }
        try await clock.waitForPendingWork()
        #expect(clock.requestedDelays == [.seconds(30)])
        clock.advance(by: .seconds(29))
        #expect(clock.pendingCount == 1)
        clock.advance(by: .seconds(1))
        #expect(try await reminder.value == "time's up")
    }

    @Test func cancellingASleepOnTheTestSchedulerThrowsAndLeavesNothingPending() async throws {
        let clock = TestScheduler()
        let sleeper = Task { try await clock.sleep(for: .seconds(30)) }
        try await clock.waitForPendingWork()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingCount == 0)
    }
}
