import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// A value whose wait comes from itself, as a backend's "resend after" does.
struct Delivery: Sendable, Codable, Equatable {
    var number: Int
    var resendAfterSeconds: Int

    var resendAfter: Duration { .seconds(resendAfterSeconds) }
}

/// Adds one to a delivery's number: the step after the wait.
final class NextDeliveryOp: PureOp {
    func launch(_ context: OpContext<Delivery>, onFinish: @escaping OnFinish<Delivery>) {
        var next = context.input
        next.number += 1
        Completion(retaining: self, context: context, onFinish: onFinish).succeed(next)
    }
}

/// A scenario that waits the delivery's own delay, then goes on.
let resendScenario = Scenario<Delivery, Delivery>("Resend") { chain in
    chain.wait("ResendDelay", for: \.resendAfter).then(Step(NextDeliveryOp.init))
}

/// Durable waits: time goes by on the scheduler, the deadline is journaled on the wall clock.
@Suite struct DurableWaitTests {
    @Test func aWaitWaitsItsTimeThenGoesOn() async throws {
        let scheduler = TestScheduler()
        let recorder = ScenarioRecorder()
        let box = FinishBox<Delivery>()
        resendScenario.launch(
            OpContext(
                Delivery(number: 1, resendAfterSeconds: 30),
                environment: OpEnvironment(scheduler: scheduler, observer: recorder)),
            onFinish: box.onFinish)
        #expect(scheduler.requestedDelays == [.seconds(30)])
        scheduler.advance(by: .seconds(29))
        #expect(box.count == 0, "29 s of a 30 s wait is not the end of it")
        scheduler.advance(by: .seconds(1))
        #expect(box.wait()?.success == Delivery(number: 2, resendAfterSeconds: 30))
        #expect(
            recorder.stepLines == [
                "ResendDelay launched #1", "ResendDelay succeeded #1", "NextDeliveryOp launched #1",
                "NextDeliveryOp succeeded #1",
            ])
        let deadline = try #require(recorder.events.compactMap { $0.value as? WaitDeadline }.first)
        #expect(deadline.until == TestScheduler.defaultWallClock.addingTimeInterval(30))
    }

    @Test func cancellationEndsTheWaitAtOnce() throws {
        let scheduler = TestScheduler()
        let token = CancellationToken()
        let box = FinishBox<Delivery>()
        resendScenario.launch(
            OpContext(
                Delivery(number: 1, resendAfterSeconds: 30), cancellation: token,
                environment: OpEnvironment(scheduler: scheduler)),
            onFinish: box.onFinish)
        #expect(scheduler.pendingCount == 1)
        token.cancel()
        let failure = try #require(box.wait()?.failure as? StepFailure)
        #expect(failure.step == "ResendDelay")
        #expect(failure.isCancellation)
        #expect(scheduler.pendingCount == 0, "the wait's timer is dropped")
    }

    @Test func aNegativeFixedWaitIsRefusedBeforeAnythingLaunches() throws {
        let ops = RecordingOps()
        let scenario = Scenario<Int, Int>("Bad") { chain in
            chain.then(Step(ops.make)).wait("Back", for: .seconds(-5))
        }
        let error = try #require(run(scenario, 1, environment: OpEnvironment())?.failure as? ScenarioDefinitionError)
        #expect(error == .negativeWait(step: "Back", seconds: -5))
        #expect("\(error)" == "Back waits a negative time (-5.0 s): give it a duration of zero or more")
        #expect(ops.launches.isEmpty)
    }

    @Test func aNegativeComputedWaitFailsTheWaitWithATypedError() throws {
        let scheduler = TestScheduler()
        let result = run(
            resendScenario, Delivery(number: 1, resendAfterSeconds: -3),
            environment: OpEnvironment(scheduler: scheduler))
        let failure = try #require(result?.failure as? StepFailure)
        #expect(failure.error as? WaitError == .negativeDuration(step: "ResendDelay", seconds: -3))
        #expect(scheduler.requestedDelays.isEmpty, "nothing waits")
    }

    @Test func aZeroWaitDoesNotWait() throws {
        let scheduler = TestScheduler()
        let result = run(
            resendScenario, Delivery(number: 1, resendAfterSeconds: 0), environment: OpEnvironment(scheduler: scheduler)
        )
        #expect(result?.success?.number == 2)
        #expect(scheduler.requestedDelays.isEmpty)
    }

    @Test func theWaitIsANoteOnTheScenariosLifeline() throws {
        let scheduler = TestScheduler()
        let tracer = InMemoryTracer()
        let box = FinishBox<Delivery>()
        var context = OpContext(
            Delivery(number: 1, resendAfterSeconds: 30), environment: OpEnvironment(scheduler: scheduler))
        context.trace = TraceScope.root(tracer, caller: .caller("Test"))
        resendScenario.launch(context, onFinish: box.onFinish)
        scheduler.advance(by: .seconds(30))
        #expect(box.wait()?.success?.number == 2)
        let notes = tracer.trace.events.compactMap { event -> String? in
            if case .note(_, let text) = event.kind { text } else { nil }
        }
        #expect(notes.contains("ResendDelay: wait 30 s"))
    }
}
