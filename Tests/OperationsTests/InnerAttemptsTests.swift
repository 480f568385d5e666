import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// The attempts an operation reports making inside one launch (`OpContext.reportRetry`) belong
/// to that launch of its step alone: the steps after it, and its own next launch, count theirs
/// afresh.
struct InnerAttemptsTests {
    @Test func aStepsInnerRetriesDoNotCountForTheStepAfterIt() throws {
        let later = ScriptedOps([.failure(.broken)])
        let recorder = ScenarioRecorder()
        let scenario = Scenario<Int, Int>("Inner") { chain in
            chain.then(Step("Retrying") { RetryingOnceOp() }).then(Step(later.make))
        }
        let box = FinishBox<Int>()
        scenario.launch(OpContext(1, environment: OpEnvironment(observer: recorder)), onFinish: box.onFinish)
        let failure = try #require(box.first?.failure as? StepFailure)
        #expect(failure.step == "ScriptedOp")
        #expect(failure.attempt == 1)
        #expect(
            recorder.stepLines == [
                "Retrying launched #1", "Retrying failed #1, retry in 0.0 seconds: busy", "Retrying launched #2",
                "Retrying succeeded #2", "ScriptedOp launched #1", "ScriptedOp failed #1: broken",
            ])
    }

    @Test func aRelaunchedStepCountsOnlyTheInnerRetriesOfItsLastLaunch() throws {
        let scenario = Scenario<Int, Int>("Inner") { chain in
            chain.then(
                Step("Retrying") { RetryingOnceOp(failing: true) }
                    .retrying(.transient(maxAttempts: 2, backoff: .immediate)))
        }
        let box = FinishBox<Int>()
        scenario.launch(OpContext(1), onFinish: box.onFinish)
        let failure = try #require(box.first?.failure as? StepFailure)
        // Each launch made two attempts, its own and one inner retry: the scenario's retry is
        // attempt 3, its inner retry attempt 4.
        #expect(failure.attempt == 4)
    }
}

/// Reports one retry of its request inside its launch, then succeeds with its input (or fails
/// with a transient error, `failing`).
private final class RetryingOnceOp: PureOp {
    struct Busy: RetryableError, CustomStringConvertible {
        var isTransient: Bool { true }
        var description: String { "busy" }
    }

    private let failing: Bool

    init(failing: Bool = false) {
        self.failing = failing
    }

    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        context.reportRetry(of: 1, after: Busy(), took: nil, retryingIn: nil, purity: .pure)
        failing ? completion.fail(Busy()) : completion.succeed(context.input)
    }
}
