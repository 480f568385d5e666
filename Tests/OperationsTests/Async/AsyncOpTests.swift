import Foundation
import Operations
import OperationsDiagrams
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// An operation written as an `async throws` function keeps the contract of every `Op`.
// A bound on a hang only, as long as `TestTimeout.standard`: a loaded machine may hold a test's
// flow off for more than a minute without anything being wrong.
@Suite(.timeLimit(.minutes(10)))
struct AsyncOpTests {
    @Test func aRunThatReturnsFinishesOnceWithItsOutputAndIsReleased() async throws {
        let report = await LaunchProbe.awaitLaunch({ AsyncDoubleOp() }, context: OpContext(21))
        #expect(report.keptContract)
        #expect(try report.value() == 42)
    }

    @Test func aRunThatThrowsFinishesOnceWithItsError() async throws {
        let report = await LaunchProbe.awaitLaunch(
            { AsyncFunctionOp<Int, Int>("Broken") { _, _ in throw TestError.broken } }, context: OpContext(1))
        #expect(report.keptContract)
        #expect(report.error as? TestError == .broken)
    }

    @Test func aLaunchWhoseTokenHasAlreadyFiredNeverRuns() async throws {
        let token = CancellationToken()
        token.cancel()
        let runs = Counter()
        let box = FinishBox<Int>()
        AsyncFunctionOp<Int, Int>("Counted") { input, _ in
            runs.increment()
            return input
        }
        .launch(OpContext(1, cancellation: token), onFinish: box.onFinish)
        #expect(box.first?.failure as? OpError == .cancelled)
        #expect(box.count == 1)
        #expect(runs.count == 0)
    }

    @Test func theOperationLivesUntilItsRunReturnsAndIsGoneWhenOnFinishRuns() async throws {
        let gate = AsyncGate()
        let delivered = AsyncGate()
        let releasedAtDelivery = LockedState<Bool?>(nil)
        let weakOperation: WeakReference<GatedAsyncOp>
        do {
            let operation = GatedAsyncOp(gate: gate)
            weakOperation = WeakReference(operation)
            operation.launch(OpContext(1)) { _ in
                releasedAtDelivery.withLock { $0 = weakOperation.value == nil }
                delivered.open()
            }
        }
        #expect(weakOperation.value != nil, "an unfinished launch keeps its operation alive")
        gate.open()
        try await delivered.wait()
        #expect(releasedAtDelivery.withLock { $0 } == true, "released before onFinish is delivered")
    }

    @Test func cancellingTheContextCancelsTheRunsTask() async throws {
        let token = CancellationToken()
        let box = FinishBox<Int>()
        let operation = GatedAsyncOp(gate: AsyncGate())
        operation.launch(OpContext(1, cancellation: token), onFinish: box.onFinish)
        token.cancel()
        #expect(box.first?.failure as? OpError == .cancelled)
        try await operation.ended.wait()
        #expect(operation.sawCancellation)
        #expect(box.count == 1, "the run's own late finish is dropped")
    }

    @Test func aDeadlineCancelsTheRunsTask() async throws {
        let scheduler = TestScheduler()
        let diagnostics = DiagnosticsRecorder()
        let environment = OpEnvironment(scheduler: scheduler, diagnostics: diagnostics)
        let box = FinishBox<Int>()
        let operation = GatedAsyncOp(gate: AsyncGate())
        operation.launch(OpContext(1, environment: environment).withTimeout(.seconds(3)), onFinish: box.onFinish)
        scheduler.advance(by: .seconds(3))
        #expect(box.first?.failure as? OpError == .timedOut)
        try await operation.ended.wait()
        #expect(operation.sawCancellation)
        #expect(box.count == 1)
        #expect(diagnostics.diagnostics.map(\.kind) == [.lateFinishDropped])
    }

    @Test func aRunThatThrowsCancellationErrorFinishesCancelled() async throws {
        let report = await LaunchProbe.awaitLaunch(
            { AsyncFunctionOp<Int, Int>("GivesUp") { _, _ in throw CancellationError() } }, context: OpContext(1))
        #expect(report.keptContract)
        #expect(report.error as? OpError == .cancelled)
    }

    @Test func awaitingALaunchFromACancelledTaskCancelsTheLaunchAndItsRun() async throws {
        let operation = GatedAsyncOp(gate: AsyncGate())
        let task = Task { try await operation.launch(with: 1) }
        // Cancelled before its run started, the launch would never run it (the test above).
        try await operation.started.wait()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        try await operation.ended.wait()
        #expect(operation.sawCancellation)
    }

    /// Awaited with a context that has no token and no deadline, `run` runs in the awaiting
    /// task: the launch is still recorded, finished once and released, and the task's
    /// cancellation reaches `run` and what `run` launches with its context.
    @Test func awaitedInTheCallingTaskItIsTracedFinishedOnceAndReleased() async throws {
        let tracer = InMemoryTracer()
        let diagnostics = DiagnosticsRecorder()
        var context = OpContext(21, environment: OpEnvironment(diagnostics: diagnostics))
        context.trace = .root(tracer, caller: .caller("App"))
        let weakOperation: WeakReference<AsyncDoubleOp>
        do {
            let operation = AsyncDoubleOp()
            weakOperation = WeakReference(operation)
            #expect(try await operation.launch(context) == 42)
        }
        #expect(weakOperation.value == nil)
        #expect(
            tracer.trace.messages.map(\.description) == [
                "App => (launch) AsyncDoubleOp: launch(21)", "AsyncDoubleOp <= (finish) App: onFinish(42)",
            ])
        #expect(diagnostics.diagnostics.isEmpty)
    }

    @Test func awaitedInTheCallingTaskATaskCancelledThrowsCancellationErrorAndCancelsNestedLaunches() async throws {
        let nested = FinishBox<Int>()
        let started = AsyncGate()
        let operation = AsyncFunctionOp<Int, Int>("Waits") { input, context in
            // A callback launch with `run`'s context: the task's cancellation must reach it too.
            StuckOp().launch(context, onFinish: nested.onFinish)
            started.open()
            try await AsyncGate().wait()
            return input
        }
        let task = Task { try await operation.launch(OpContext(1)) }
        try await started.wait()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(nested.first?.failure as? OpError == .cancelled)
    }

    @Test func aStepWhoseRunThrowsCancellationErrorEndsTheRunCancelled() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("async-op-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = RunStore(stateDirectory: directory)
        let journal = try store.create(scenario: "GivesUp")
        let scenario = Scenario<Int, Int>("GivesUp") { chain in
            chain.then(Step("Stop", purity: .pure) { _, _ in throw CancellationError() })
        }
        let failure = await #expect(throws: StepFailure.self) {
            try await scenario.launch(OpContext(1, environment: OpEnvironment(observer: journal)))
        }
        #expect(failure?.error as? OpError == .cancelled, "\(String(describing: failure))")
        try journal.close()
        let record = try store.load(journal.runID)
        #expect(record.status == .cancelled)
    }

    @Test func inAScenarioItIsJournaledAndDrawnLikeAnyOtherStep() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("async-op-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = RunStore(stateDirectory: directory)
        let journal = try store.create(scenario: "AsyncSteps")
        let tracer = InMemoryTracer()
        let inventory = Participant.keyService("Inventory")
        let scenario = Scenario<Int, String>("AsyncSteps") { chain in
            chain
                .then(Step { AsyncDoubleOp() })
                .then(
                    Step("Describe", purity: .pure) { number, context in
                        context.trace?.message(to: inventory, "describe(\(number))")
                        return "#\(number)"
                    })
        }
        var context = OpContext(5, environment: OpEnvironment(observer: journal))
        context.trace = .root(tracer, caller: .caller("App"))
        #expect(try await scenario.launch(context) == "#10")
        try journal.close()

        let record = try store.load(journal.runID)
        #expect(record.status == .succeeded)
        #expect(record.steps.map(\.outcome) == [.succeeded, .succeeded])
        #expect(record.steps.map(\.address) == [StepAddress((0, "AsyncDoubleOp")), StepAddress((1, "Describe"))])
        #expect(
            tracer.trace.messages.map(\.description) == [
                "App => (launch) AsyncSteps: launch(5)",
                "AsyncSteps => (launch) AsyncDoubleOp: launch(5)",
                "AsyncDoubleOp <= (finish) AsyncSteps: onFinish(10)",
                "AsyncSteps => (launch) Describe: launch(10)",
                "Describe -> Inventory: describe(10)",
                "Describe <= (finish) AsyncSteps: onFinish(#10)",
                "AsyncSteps <= (finish) App: onFinish(#10)",
            ])
        #expect(throws: Never.self) { try tracer.trace.validate() }
    }

    @Test func afterAFailureARerunReplaysWhatFinishedAndRunsTheFailedStepAgain() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("async-op-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = RunStore(stateDirectory: directory)
        let firstInputs = LockedState<[Int]>([])
        let secondInputs = LockedState<[Int]>([])
        let scenario = Scenario<Int, Int>("Resumable") { chain in
            chain
                .then(
                    Step("Add", purity: .pure) { input, _ in
                        firstInputs.withLock { $0.append(input) }
                        return input + 1
                    }
                )
                .then(
                    Step("Fragile", purity: .pure) { input, _ in
                        let attempt = secondInputs.withLock {
                            $0.append(input)
                            return $0.count
                        }
                        if attempt == 1 { throw TestError.broken }
                        return input * 10
                    })
        }
        let journal = try store.create(scenario: "Resumable")
        await #expect(throws: StepFailure.self) {
            try await scenario.launch(OpContext(1, environment: OpEnvironment(observer: journal)))
        }
        try journal.close()

        let resumed = try store.resume(journal.runID)
        let input = try #require(try resumed.resumedFrom?.input(as: Int.self))
        let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
        #expect(try await scenario.launch(OpContext(input, environment: environment)) == 20)
        try resumed.close()

        #expect(firstInputs.withLock { $0 } == [1])
        #expect(secondInputs.withLock { $0 } == [2, 2])
        let record = try store.load(journal.runID)
        #expect(record.status == .succeeded)
        #expect(record.steps.map(\.outcome) == [.replayed, .succeeded])
    }
}
