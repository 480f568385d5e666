import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// A context made without an environment stores none (the default environment outlives every
/// launch, so neither the context nor the completion retains it); these pin what callers see.
struct ContextEnvironmentTests {
    @Test func aContextMadeWithoutAnEnvironmentReadsTheDefaultOne() {
        #expect(OpContext(1).environment === OpEnvironment.default)
        #expect(OpContext(1, cancellation: CancellationToken()).environment === OpEnvironment.default)
        #expect(OpContext().environment === OpEnvironment.default)
        #expect(OpContext(1, environment: .default).environment === OpEnvironment.default)
    }

    @Test func anEnvironmentSetOnAContextStaysThroughItsDerivedContexts() {
        let custom = OpEnvironment(diagnostics: DiagnosticsRecorder())
        var context = OpContext(1, environment: custom)
        #expect(context.environment === custom)
        #expect(context.with(input: "next").environment === custom)
        #expect(context.withTimeout(.seconds(1)).environment === custom)

        context.environment = .default
        #expect(context.environment === OpEnvironment.default)
        context.environment = custom
        #expect(context.environment === custom)
    }

    @Test func aCompletionKeepsItsLaunchsEnvironmentForItsDiagnosticsAndThenLetsItGo() throws {
        let recorder = DiagnosticsRecorder()
        let operation = CompletionHoldingOp()
        let box = FinishBox<Int>()
        weak var weakEnvironment: OpEnvironment?
        do {
            let environment = OpEnvironment(diagnostics: recorder)
            weakEnvironment = environment
            operation.launch(OpContext(1, environment: environment), onFinish: box.onFinish)
        }
        #expect(weakEnvironment != nil, "the unfinished launch's completion holds its environment")

        do {
            let completion = try #require(operation.takeCompletion())
            completion.succeed(2)
            completion.succeed(3)
        }
        #expect(try box.wait()?.get() == 2)
        #expect(recorder.count(.finishedTwice) == 1, "the second finish reaches the launch's environment")
        #expect(weakEnvironment == nil, "a released completion releases its environment")
    }
}

/// Hands its launch's completion to the test, which finishes it: the completion is then the only
/// holder of the launch's context parts.
private final class CompletionHoldingOp: PureOp {
    private let held = LockedState<Completion<Int>?>(nil)

    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        held.withLock { $0 = completion }
    }

    func takeCompletion() -> Completion<Int>? {
        held.withLock { held in
            defer { held = nil }
            return held
        }
    }
}
