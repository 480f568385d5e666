import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

struct TestSupportTests {
    @Test func theProbeCatchesAnOperationThatNeverFinishes() throws {
        let report = LaunchProbe.launch(StuckOp(), input: 1, timeout: .milliseconds(50))
        #expect(report.timedOut)
        #expect(report.finishCount == 0)
        #expect(!report.keptContract)
        #expect(throws: LaunchProbeError.neverFinished(operation: "StuckOp")) { try report.value() }
    }

    @Test func theProbeCatchesAnOperationThatHoldsOnToItselfAfterFinishing() {
        let report = LaunchProbe.launch(ClingingOp(), input: 1, timeout: .milliseconds(50))
        #expect(report.finishCount == 1)
        #expect(!report.released)
        #expect(!report.keptContract)
    }

    /// A scenario kept in a variable is released by whoever holds it: the probe returns at the
    /// finish instead of waiting out a release that cannot come (which, on a two-core machine,
    /// held one of the two threads Swift Testing runs on for the whole timeout).
    @Test func anOperationHeldElsewhereIsNotWaitedOnForItsRelease() throws {
        let scenario = Scenario<Int, Int>("Held") { chain in chain.then(Step { DoubleOp() }) }
        let report = LaunchProbe.launch(scenario, input: 2)
        #expect(try report.value() == 4)
        #expect(report.released, "its release is its holder's, not the launch's")
        #expect(report.keptContract)
    }

    @Test func theProbeCatchesAnOperationThatFinishesTwice() {
        let raw = LaunchProbe.launch(RawTwiceOp(), input: 1)
        #expect(raw.finishCount == 2)
        #expect(!raw.keptContract)

        let guarded = LaunchProbe.launch(TwiceOp(), input: 1)
        #expect(guarded.finishCount == 1)
        #expect(!guarded.keptContract, "the ignored second finish is still a broken contract")
    }

    @Test func launchAndWaitTimesOutInsteadOfHanging() throws {
        #expect(throws: LaunchProbeError.neverFinished(operation: "StuckOp")) {
            try StuckOp().launchAndWait(OpContext(1), timeout: .milliseconds(50))
        }
        #expect(try DoubleOp().launchAndWait(OpContext(2)) == 4)
    }

    @Test func theScenarioRecorderRecordsTheStepSequence() {
        let recorder = ScenarioRecorder()
        let scenario = Scenario<Int, Int>("Recorded") { chain in
            chain.then(Step("A") { DoubleOp() }).then(Step("B") { DoubleOp() })
        }
        _ = try? scenario.launchAndWait(OpContext(1, environment: OpEnvironment(observer: recorder)))
        #expect(
            recorder.lines == [
                "Recorded started", "A launched #1", "A succeeded #1", "B launched #1", "B succeeded #1",
                "Recorded succeeded",
            ])
    }
}

/// Finishes, then keeps itself alive through a cycle: the leak the probe's release check is for.
private final class ClingingOp: PureOp {
    private let cycle = LockedState<ClingingOp?>(nil)

    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        cycle.withLock { $0 = self }
        Completion(retaining: self, context: context, onFinish: onFinish).succeed(context.input)
    }
}
