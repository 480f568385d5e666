import Operations
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
