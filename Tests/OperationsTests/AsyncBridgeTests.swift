import Dispatch
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

struct AsyncBridgeTests {
    @Test func awaitingALaunchReturnsTheOutput() async throws {
        #expect(try await DoubleOp().launch(with: 4) == 8)
        let gate = DispatchSemaphore(value: 0)
        gate.signal()
        #expect(try await GatedOp(gate: gate).launch(with: 4) == 5)
    }

    @Test func awaitingAFailedLaunchThrowsItsError() async throws {
        let ops = ScriptedOps([.failure(.broken)])
        await #expect(throws: TestError.broken) { try await ops.make().launch(with: 1) }
    }

    @Test func cancellingTheTaskCancelsTheOperationAndThrowsCancellationError() async throws {
        let task = Task { try await StuckOp().launch(with: 1) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func aLaunchCancelledByItsOwnTokenThrowsOpErrorCancelledToATaskGoingOn() async throws {
        let token = CancellationToken()
        token.cancel()
        await #expect(throws: OpError.cancelled) { try await StuckOp().launch(OpContext(1, cancellation: token)) }
    }

    @Test func aScenarioCanBeAwaited() async throws {
        let scenario = Scenario<Int, String>("Async") { chain in
            chain.then(Step { DoubleOp() }).then(Step { DescribeOp() })
        }
        #expect(try await scenario.launch(with: 5) == "#10")
    }

    @Test func anOperationCallingOnFinishTwiceResumesTheCallerOnceAndIsReported() async throws {
        let diagnostics = DiagnosticsRecorder()
        let output = try await RawTwiceOp().launch(OpContext(3, environment: OpEnvironment(diagnostics: diagnostics)))
        #expect(output == 1)
        #expect(diagnostics.diagnostics == [OpDiagnostic(kind: .finishedTwice, operation: "RawTwiceOp")])
    }

    @Test func anOperationDroppingOnFinishUncalledDoesNotLeaveTheCallerWaiting() async throws {
        let diagnostics = DiagnosticsRecorder()
        await #expect(throws: OpError.abandoned(operation: "RawDroppingOp")) {
            try await RawDroppingOp().launch(OpContext(3, environment: OpEnvironment(diagnostics: diagnostics)))
        }
        #expect(diagnostics.diagnostics == [OpDiagnostic(kind: .abandoned, operation: "RawDroppingOp")])
    }

    @Test func theAsyncBridgeDeliversOnceWhenAnOperationCallsOnFinishTwice() async throws {
        let diagnostics = DiagnosticsRecorder()
        let value = try await RawTwiceOp().launch(OpContext(0, environment: OpEnvironment(diagnostics: diagnostics)))
        #expect(value == 1)
        #expect(diagnostics.diagnostics.map(\.kind) == [.finishedTwice])
    }
}

/// Lets go of `onFinish` without calling it and without a ``Completion``: only the bridge can
/// notice.
private final class RawDroppingOp: PureOp {
    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {}
}
