import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

struct RetryTests {
    private func launch(
        _ scenario: Scenario<Int, Int>, input: Int = 5, scheduler: TestScheduler = TestScheduler(),
        recorder: ScenarioRecorder = ScenarioRecorder()
    ) -> FinishBox<Int> {
        let box = FinishBox<Int>()
        let environment = OpEnvironment(scheduler: scheduler, observer: recorder, random: { 0 })
        scenario.launch(OpContext(input, environment: environment), onFinish: box.onFinish)
        return box
    }

    @Test func transientFailuresAreRetriedUntilSuccess() {
        let ops = ScriptedOps([.failure(.flaky), .failure(.flaky), .success(7)])
        let recorder = ScenarioRecorder()
        let scenario = Scenario<Int, Int>("Flaky") { chain in
            chain.then(Step(ops.make).retrying(.transient(maxAttempts: 3, backoff: .immediate)))
        }
        let box = launch(scenario, recorder: recorder)
        #expect(box.first?.success == 7)
        #expect(ops.launchCount == 3)
        #expect(
            recorder.stepLines == [
                "ScriptedOp launched #1", "ScriptedOp failed #1, retry in 0.0 seconds: flaky",
                "ScriptedOp launched #2", "ScriptedOp failed #2, retry in 0.0 seconds: flaky",
                "ScriptedOp launched #3", "ScriptedOp succeeded #3",
            ])
    }

    @Test func aPermanentErrorIsNeverRetried() throws {
        let ops = ScriptedOps([.failure(.broken)])
        let scenario = Scenario<Int, Int>("Broken") { chain in
            chain.then(Step(ops.make).retrying(.transient(maxAttempts: 5, backoff: .immediate)))
        }
        let failure = try #require(launch(scenario).first?.failure as? StepFailure)
        #expect(ops.launchCount == 1)
        #expect(failure.step == "ScriptedOp")
        #expect(failure.rootCause as? TestError == .broken)
    }

    @Test func retriesStopWhenAttemptsRunOut() throws {
        let ops = ScriptedOps(Array(repeating: .failure(.flaky), count: 10))
        let scenario = Scenario<Int, Int>("Flaky") { chain in
            chain.then(Step(ops.make).retrying(.transient(maxAttempts: 4, backoff: .immediate)))
        }
        let failure = try #require(launch(scenario).first?.failure as? StepFailure)
        #expect(ops.launchCount == 4)
        #expect(failure.attempt == 4)
        #expect(failure.description == "ScriptedOp failed after 4 attempts: flaky")
    }

    @Test func backoffWaitsAsConfiguredOnTheInjectedScheduler() {
        let ops = ScriptedOps(Array(repeating: .failure(.flaky), count: 4))
        let scheduler = TestScheduler()
        let backoff = Backoff(initial: .milliseconds(100), multiplier: 3, cap: .milliseconds(500), jitter: 0)
        let scenario = Scenario<Int, Int>("Backoff") { chain in
            chain.then(Step(ops.make).retrying(.transient(maxAttempts: 5, backoff: backoff)))
        }
        let box = launch(scenario, scheduler: scheduler)
        #expect(ops.launchCount == 1)
        scheduler.advance(by: .milliseconds(99))
        #expect(ops.launchCount == 1, "the first retry waits the initial delay")
        scheduler.advance(by: .milliseconds(1))
        #expect(ops.launchCount == 2)
        scheduler.advance(by: .seconds(10))
        #expect(ops.launchCount == 5)
        #expect(box.first?.success == 5)
        #expect(
            scheduler.requestedDelays == [
                .milliseconds(100), .milliseconds(300), .milliseconds(500), .milliseconds(500),
            ])
    }

    /// An error that says how long to wait (a `429` or `503` with `Retry-After`) is retried after
    /// that long, or after the backoff when it is longer, and never after more than the policy's
    /// limit.
    @Test(arguments: [
        (Duration.seconds(29), Duration.seconds(60), Duration.milliseconds(200), Duration.seconds(29)),
        (.seconds(29), .seconds(10), .milliseconds(200), .seconds(10)),
        (.seconds(1), .seconds(60), .seconds(5), .seconds(5)),
    ])
    func aRetryWaitsWhatTheErrorAskedUpToThePolicysLimit(
        asked: Duration, limit: Duration, initial: Duration, expected: Duration
    ) {
        let ops = ScriptedOps([.failure(.busy(for: asked))])
        let scheduler = TestScheduler()
        let recorder = ScenarioRecorder()
        let policy = RetryPolicy.transient(
            maxAttempts: 2, backoff: Backoff(initial: initial, jitter: 0), maxRequestedDelay: limit)
        let scenario = Scenario<Int, Int>("Busy") { chain in chain.then(Step(ops.make).retrying(policy)) }
        let box = launch(scenario, scheduler: scheduler, recorder: recorder)

        #expect(scheduler.requestedDelays == [expected])
        #expect(recorder.stepLines.contains("ScriptedOp failed #1, retry in \(expected): busy"))
        scheduler.advance(by: expected - .milliseconds(1))
        #expect(ops.launchCount == 1, "not retried before its time")
        scheduler.advance(by: .milliseconds(1))
        #expect(ops.launchCount == 2)
        #expect(box.first?.success == 5)
    }

    @Test func anErrorThatAsksNothingWaitsTheBackoff() {
        let policy = RetryPolicy.transient(backoff: Backoff(initial: .seconds(2), jitter: 0), maxRequestedDelay: .zero)
        #expect(policy.delay(beforeRetry: 1, after: TestError.flaky, random: 0) == .seconds(2))
        #expect(policy.delay(beforeRetry: 1, after: CancellationError(), random: 0) == .seconds(2))
        #expect(policy.delay(beforeRetry: 1, after: TestError.busy(for: .seconds(30)), random: 0) == .seconds(2))
    }

    @Test(arguments: [(0.0, 1_000), (0.5, 750), (0.999, 500)])
    func jitterTakesAtMostItsShareOffTheWait(random: Double, expectedMilliseconds: Int) {
        let backoff = Backoff(initial: .seconds(1), multiplier: 2, cap: .seconds(30), jitter: 0.5)
        let delay = backoff.delay(beforeRetry: 1, random: random)
        let error = delay - .milliseconds(expectedMilliseconds)
        #expect(error < .milliseconds(1) && error > .milliseconds(-1))
    }

    @Test func aStepWithSideEffectsIsRetriedOnlyWhenItsPolicySaysSo() {
        let once = ScriptedOps([.failure(.flaky)])
        let guarded = Scenario<Int, Int>("Guarded") { chain in
            chain.then(Step(once.makeWithSideEffects).retrying(.transient(maxAttempts: 3, backoff: .immediate)))
        }
        _ = launch(guarded)
        #expect(once.launchCount == 1)

        let twice = ScriptedOps([.failure(.flaky)])
        let explicit = Scenario<Int, Int>("Explicit") { chain in
            chain.then(
                Step(twice.makeWithSideEffects)
                    .retrying(RetryPolicy(maxAttempts: 3, backoff: .immediate, relaunchesSideEffects: true)))
        }
        #expect(launch(explicit).first?.success == 5)
        #expect(twice.launchCount == 2)
    }

    @Test func aFailureHandlerRelaunchesTheStepWithNewInput() {
        let ops = ScriptedOps([.failure(.broken), .failure(.broken)])
        let asked = FinishBox<Int>()
        let scenario = Scenario<Int, Int>("AskAgain") { chain in
            chain.then(
                Step(ops.make).onFailure { failure, decide in
                    asked.onFinish(.success(failure.attempt))
                    decide(failure.attempt < 2 ? .relaunch(failure.input * 10) : .recover(-1))
                })
        }
        let recorder = ScenarioRecorder()
        let box = launch(scenario, recorder: recorder)
        #expect(box.first?.success == -1)
        #expect(ops.launchCount == 2)
        #expect(
            recorder.stepLines.filter { $0.contains("launched") } == [
                "ScriptedOp launched #1", "ScriptedOp launched #2",
            ])
        #expect(
            recorder.events.filter { if case .stepLaunched = $0.kind { true } else { false } }.compactMap {
                $0.value as? Int
            } == [5, 50])
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
}

struct DeclinedRetryTests {
    @Test func aTransientErrorOfAStepWithSideEffectsSaysWhyItWasNotRetried() throws {
        let ops = ScriptedOps([.failure(.flaky), .success(7)])
        let recorder = ScenarioRecorder()
        let scenario = Scenario<Int, Int>("Effects") { chain in
            chain.then(Step(ops.makeWithSideEffects).retrying(.transient(maxAttempts: 3, backoff: .immediate)))
        }
        let box = FinishBox<Int>()
        scenario.launch(OpContext(1, environment: OpEnvironment(observer: recorder)), onFinish: box.onFinish)
        let failure = try #require(box.first?.failure as? StepFailure)
        #expect(ops.launchCount == 1)
        #expect(failure.rootCause as? TestError == .flaky)
        #expect(
            failure.note
                == "not retried: SideEffectOp has side effects and its retry policy does not relaunch them")
        #expect(failure.description.contains("not retried: SideEffectOp has side effects"))
        #expect(RecordedError(failure).description.contains("does not relaunch them"))
    }

    @Test func aPermanentErrorCarriesNoNote() throws {
        let ops = ScriptedOps([.failure(.broken)])
        let scenario = Scenario<Int, Int>("Effects") { chain in
            chain.then(Step(ops.makeWithSideEffects).retrying(.transient(maxAttempts: 3, backoff: .immediate)))
        }
        let box = FinishBox<Int>()
        scenario.launch(OpContext(1), onFinish: box.onFinish)
        let failure = try #require(box.first?.failure as? StepFailure)
        #expect(failure.note == nil)
    }
}
