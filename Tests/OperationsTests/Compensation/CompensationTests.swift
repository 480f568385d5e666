import Foundation
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// A scenario that fails for good undoes the steps it finished, last first.
struct CompensationTests {
    @Test func aFailureForGoodUndoesTheFinishedStepsLastFirst() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.broken)]])
        let recorder = ScenarioRecorder()
        let result = run(saga(ledger), 1, environment: OpEnvironment(observer: recorder))
        let failure = try #require(result?.failure as? StepFailure, "the scenario fails with the step's failure")
        #expect(failure.step == "Confirm")
        #expect(ledger.names == ["Reserve", "Charge", "Confirm", "Refund", "Release"])
        // Each compensation gets what its declaration asks for: Refund the charge's input and
        // output, Release the reservation (Reserve's output).
        #expect(ledger.launches[3].input == 2 * 100 + 3)
        #expect(ledger.launches[4].input == 2)
        #expect(
            recorder.stepLines.suffix(5) == [
                "Confirm failed for good, undoing: broken",
                "Refund launched #1", "Refund succeeded #1",
                "Release launched #1", "Release succeeded #1",
            ])
    }

    @Test func compensationsSitBelowTheStepTheyUndoWithKeysOfTheirOwn() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.broken)]])
        let recorder = ScenarioRecorder()
        _ = run(saga(ledger), 1, environment: OpEnvironment(observer: recorder))
        let launched = recorder.events.filter { if case .stepLaunched = $0.kind { true } else { false } }
        #expect(
            launched.map(\.address.description) == [
                "0.Reserve", "1.Charge", "2.Confirm", "1.Charge/undo.Refund", "0.Reserve/undo.Release",
            ])
        #expect(launched.suffix(2).allSatisfy { $0.address.isCompensation })
        let keys = ledger.launches.compactMap(\.key)
        #expect(keys.count == 5, "every launch with side effects carries a key")
        #expect(Set(keys).count == 5, "a compensation is a request of its own")
    }

    @Test func aStepThatSucceedsAfterRetriesUndoesNothing() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.flaky)]])
        let result = run(
            saga(ledger, confirmRetry: RetryPolicy(maxAttempts: 2, relaunchesSideEffects: true)), 1,
            environment: OpEnvironment())
        #expect(result?.success == 4)
        #expect(ledger.names == ["Reserve", "Charge", "Confirm", "Confirm"])
    }

    @Test func aCancelledRunUndoesNothing() throws {
        let ledger = EffectLedger(["Confirm": [.hang]])
        let token = CancellationToken()
        let box = FinishBox<Int>()
        saga(ledger).launch(OpContext(1, cancellation: token), onFinish: box.onFinish)
        token.cancel()
        let error = try #require(box.wait()?.failure)
        #expect(error.isCancellation)
        #expect(ledger.names == ["Reserve", "Charge", "Confirm"], "a cancelled run stays ready to resume")
    }

    @Test func aFailedCompensationIsReportedWithWhatIsLeftUndoneAndTheOthersStillRun() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.broken)], "Refund": [.fail(.broken)]])
        let result = run(saga(ledger), 1, environment: OpEnvironment())
        let failure = try #require(result?.failure as? CompensationFailure)
        #expect((failure.failure as? StepFailure)?.step == "Confirm")
        #expect(failure.undone.map(\.step) == ["Reserve"])
        #expect(failure.leftUndone.map(\.step) == ["Charge"])
        #expect(failure.leftUndone.map(\.compensation) == ["Refund"])
        #expect(ledger.names.suffix(2) == ["Refund", "Release"], "the stock is released though the refund failed")
        #expect(failure.description == "Confirm failed: broken; left undone: Charge (Refund failed: broken)")
    }

    @Test func aCompensationIsRetriedByItsOwnPolicy() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.broken)], "Release": [.fail(.flaky)]])
        let scenario = Scenario<Int, Int>("Saga") { chain in
            chain
                .then(
                    ledger.step("Reserve").compensated(
                        by: ledger.step("Release").retrying(RetryPolicy(maxAttempts: 3, relaunchesSideEffects: true)))
                )
                .then(ledger.step("Confirm"))
        }
        let failure = try #require(run(scenario, 1, environment: OpEnvironment())?.failure as? StepFailure)
        #expect(failure.step == "Confirm")
        #expect(ledger.names == ["Reserve", "Confirm", "Release", "Release"])
        #expect(ledger.launches[2].key == ledger.launches[3].key, "a retry repeats the same request")
    }

    @Test func onlyTheStepsThatFinishedAreUndone() throws {
        let ledger = EffectLedger(["Charge": [.fail(.broken)]])
        let failure = try #require(run(saga(ledger), 1, environment: OpEnvironment())?.failure as? StepFailure)
        #expect(failure.step == "Charge")
        #expect(ledger.names == ["Reserve", "Charge", "Release"], "the failed charge has nothing to refund")
    }

    @Test func aNestedScenarioUndoesItsOwnStepsBeforeItsParentUndoesItsOwn() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.broken)]])
        let inner = saga(ledger)
        let outer = Scenario<Int, Int>("Outer") { chain in
            chain
                .then(ledger.step("Open").compensated(by: ledger.step("Close")))
                .then(Step("Saga", purity: .sideEffects) { inner })
        }
        let failure = try #require(run(outer, 1, environment: OpEnvironment())?.failure as? StepFailure)
        #expect(failure.stepPath == ["Saga", "Confirm"])
        #expect(ledger.names == ["Open", "Reserve", "Charge", "Confirm", "Refund", "Release", "Close"])
    }

    @Test func aCompensationOnAPureStepStopsTheLaunchBeforeAnyStepLaunches() throws {
        let ledger = EffectLedger()
        let doubled = ScriptedOps([])
        let scenario = Scenario<Int, Int>("Wrong") { chain in
            chain.then(ledger.step("Reserve")).then(Step("Double", doubled.make).compensated(by: ledger.step("Undo")))
        }
        let error = try #require(run(scenario, 1, environment: OpEnvironment())?.failure as? ScenarioDefinitionError)
        #expect(error == .compensationOnPureStep(step: "Double", compensation: "Undo"))
        #expect(ledger.names.isEmpty)
        #expect(doubled.launchCount == 0)
        #expect("\(error)".hasPrefix("Double is pure, so it has nothing to undo"))
    }

    @Test func theShapeNamesEachCompensation() {
        let shape = saga(EffectLedger()).shape
        #expect(shape.steps.map(\.undoneBy) == ["Release", "Refund", nil])
        #expect(shape.text.contains("0 Reserve: Int -> Int, side effects, undone by Release"))
    }

    @Test func manyCompensationsFinishingInsideTheirLaunchKeepTheStackFlat() async throws {
        let ledger = EffectLedger(["Last": [.fail(.broken)]])
        let count = 2_000
        let scenario = Scenario<Int, Int>("Long") { start in
            var chain = start
            for index in 0..<count {
                chain = chain.then(ledger.step("Step\(index)").compensated(by: ledger.step("Undo\(index)")))
            }
            return chain.then(ledger.step("Last"))
        }
        let box = FinishBox<Int>()
        let thread = Thread { scenario.launch(OpContext(0), onFinish: box.onFinish) }
        thread.stackSize = 512 * 1024
        thread.start()
        // Waited for on a thread of its own, not on the test pool.
        let result = await OwnThread.run { box.wait() }
        #expect((result?.failure as? StepFailure)?.step == "Last")
        #expect(ledger.names.last == "Undo0")
        #expect(ledger.launches.count == 2 * count + 1)
    }
}

extension CompensationTests {
    @Test func aFailureARerunMayGetPastUndoesNothing() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.flaky)]])
        let failure = try #require(run(saga(ledger), 1, environment: OpEnvironment())?.failure as? StepFailure)
        #expect(failure.step == "Confirm")
        #expect(ledger.names == ["Reserve", "Charge", "Confirm"], "a transient failure leaves the run to a rerun")
    }
}
