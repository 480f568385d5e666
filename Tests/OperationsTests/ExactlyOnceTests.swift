import Dispatch
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

struct ExactlyOnceTests {
    @Test func eightThreadsRacingToFinishEachOf100kOperationsDeliverEachExactlyOnce() {
        let count = 100_000
        let diagnostics = CountingDiagnostics()
        let environment = OpEnvironment(diagnostics: diagnostics)
        let deliveries = LockedState([UInt8](repeating: 0, count: count))
        let completions = LockedState<[Completion<Int>]>([])
        for index in 0..<count {
            ManualOp { completion in completions.withLock { $0.append(completion) } }
                .launch(OpContext(index, environment: environment)) { _ in
                    deliveries.withLock { $0[index] &+= 1 }
                }
        }
        let racing = completions.withLock { $0 }
        completions.withLock { $0.removeAll() }

        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            // Each thread walks the operations from a different starting point so that every
            // operation is finished by threads arriving at different moments.
            for step in 0..<count {
                racing[(step + thread * (count / 8)) % count].succeed(thread)
            }
        }

        let counts = deliveries.withLock { $0 }
        #expect(counts.count { $0 == 0 } == 0, "lost finishes")
        #expect(counts.count { $0 > 1 } == 0, "double deliveries")
        #expect(diagnostics.finishedTwice == count * 7)
    }

    @Test func aSecondFinishIsIgnoredAndReported() throws {
        let report = LaunchProbe.launch(TwiceOp(), input: 0)
        #expect(report.finishCount == 1)
        #expect(try report.value() == 1)
        #expect(report.diagnostics.map(\.kind) == [.finishedTwice])
        #expect(report.diagnostics.first?.operation == "TwiceOp")
    }

    @Test func anAbandonedLaunchFinishesWithAnErrorAndIsReported() {
        let report = LaunchProbe.launch(AbandoningOp(), input: 0)
        #expect(report.finishCount == 1)
        #expect(report.error as? OpError == .abandoned(operation: "AbandoningOp"))
        #expect(report.diagnostics.map(\.kind) == [.abandoned])
        #expect(report.released)
    }

    @Test func aScenarioStepThatCallsOnFinishTwiceAdvancesTheScenarioOnce() {
        let diagnostics = DiagnosticsRecorder()
        let recorder = ScenarioRecorder()
        let scenario = Scenario<Int, String>("Twice") { chain in
            chain.then(Step { RawTwiceOp() }).then(Step { DescribeOp() })
        }
        let box = FinishBox<String>()
        scenario.launch(
            OpContext(0, environment: OpEnvironment(diagnostics: diagnostics, observer: recorder)),
            onFinish: box.onFinish)
        #expect(box.count == 1)
        #expect(box.first?.success == "#1")
        #expect(
            recorder.stepLines == [
                "RawTwiceOp launched #1", "RawTwiceOp succeeded #1", "DescribeOp launched #1",
                "DescribeOp succeeded #1",
            ])
        #expect(diagnostics.diagnostics == [OpDiagnostic(kind: .finishedTwice, operation: "RawTwiceOp")])
    }

    @Test func anAbandonedLaunchLeavesTheRegistryAndTheToken() {
        let registry = InFlightRegistry()
        let token = CancellationToken()
        let report = LaunchProbe.launch(
            AbandoningOp(), context: OpContext(1, cancellation: token, environment: OpEnvironment(inFlight: registry)))
        #expect(report.error as? OpError == .abandoned(operation: "AbandoningOp"))
        #expect(registry.entries.isEmpty)
        #expect(token.pendingHandlerCount == 0)
    }
}
