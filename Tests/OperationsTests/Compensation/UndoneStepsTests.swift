import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// A failure that was undone says which steps it undid, by address and compensation: an app
/// tells an effect undone from one that never happened without an observer of its own, in the
/// live run, in a rerun that finishes an undoing, and from the journal of an undone run.
struct UndoneStepsTests {
    @Test func aFailureCarriesTheStepsItsScenarioUndidLastFinishedFirst() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.broken)]])
        let failure = try #require(run(saga(ledger), 1, environment: OpEnvironment())?.failure as? StepFailure)
        let expected = [
            UndoneStep(address: StepAddress((1, "Charge")), compensation: "Refund"),
            UndoneStep(address: StepAddress((0, "Reserve")), compensation: "Release"),
        ]
        #expect(failure.undone == expected)
        #expect(failure.undoneSteps == expected)
        #expect(failure.undoneSteps.map(\.description) == ["Charge (undone by Refund)", "Reserve (undone by Release)"])
    }

    @Test func aStepThatNeverFinishedIsNotAmongTheUndone() throws {
        // "Never opened": the reservation failed, nothing was undone.
        let neverReserved = try #require(
            run(saga(EffectLedger(["Reserve": [.fail(.broken)]])), 1, environment: OpEnvironment())?.failure
                as? StepFailure)
        #expect(neverReserved.undoneSteps.isEmpty)
        // "Opened and closed again": the charge failed, the reservation was released.
        let released = try #require(
            run(saga(EffectLedger(["Charge": [.fail(.broken)]])), 1, environment: OpEnvironment())?.failure
                as? StepFailure)
        #expect(released.undoneSteps.map(\.step) == ["Reserve"])
    }

    @Test func aFailureARerunMayGetPastUndoesNothingAndSaysSo() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.flaky)]])
        let failure = try #require(run(saga(ledger), 1, environment: OpEnvironment())?.failure as? StepFailure)
        #expect(failure.undoneSteps.isEmpty)
        #expect(ledger.names == ["Reserve", "Charge", "Confirm"])
    }

    @Test func aNestedScenariosUndoneStepsComeFirstWithTheirFullAddresses() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.broken)]])
        let inner = saga(ledger)
        let outer = Scenario<Int, Int>("Outer") { chain in
            chain
                .then(ledger.step("Open").compensated(by: ledger.step("Close")))
                .then(Step("Saga", purity: .sideEffects) { inner })
        }
        let failure = try #require(run(outer, 1, environment: OpEnvironment())?.failure as? StepFailure)
        #expect(failure.undone.map(\.address) == [StepAddress((0, "Open"))], "the outer scenario's own")
        #expect(
            failure.undoneSteps.map(\.address.description) == ["1.Saga/1.Charge", "1.Saga/0.Reserve", "0.Open"])
        #expect(failure.undoneSteps.map(\.compensation) == ["Refund", "Release", "Close"])
    }

    @Test func aBranchUndoneAfterAParallelStepFailedIsNamedBelowIt() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.broken)]])
        let scenario = Scenario<Int, Int>("Fan") { chain in
            chain
                .parallel("Both", ledger.step("Hold").compensated(by: ledger.step("Free")), ledger.step("Note"))
                .map { held, _ in held }
                .then(ledger.step("Confirm"))
        }
        let failure = try #require(run(scenario, 1, environment: OpEnvironment())?.failure as? StepFailure)
        #expect(
            failure.undoneSteps == [UndoneStep(address: StepAddress((0, "Both"), (0, "Hold")), compensation: "Free")])
    }

    @Test func anUndoingThatLeftSomethingUndoneNamesBothSidesByAddress() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.broken)], "Refund": [.fail(.broken)]])
        let failure = try #require(run(saga(ledger), 1, environment: OpEnvironment())?.failure as? CompensationFailure)
        #expect(failure.undone == [UndoneStep(address: StepAddress((0, "Reserve")), compensation: "Release")])
        #expect(failure.undoneSteps == failure.undone)
        #expect(failure.leftUndone.map(\.address) == [StepAddress((1, "Charge"))])
        #expect(failure.leftUndone.map(\.step) == ["Charge"])
    }

    @Test func theJournalOfAnUndoneRunListsWhatWasUndoneWhenARerunIsRefused() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let journal = try store.create(scenario: "Saga")
            _ = run(
                saga(EffectLedger(["Confirm": [.fail(.broken)]])), 1, environment: OpEnvironment(observer: journal))
            try journal.close()
            #expect(throws: JournalError.self) { try store.resume(journal.runID) }
            let record = try store.load(journal.runID)
            #expect(
                record.undone == [
                    UndoneStep(address: StepAddress((1, "Charge")), compensation: "Refund"),
                    UndoneStep(address: StepAddress((0, "Reserve")), compensation: "Release"),
                ])
            #expect(record.undoneSteps == record.undone.map(\.address))
        }
    }

    @Test func aRerunThatFinishesAnUndoingCountsTheCompensationsOfEarlierSessions() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let journal = try store.create(scenario: "Saga")
            saga(EffectLedger(["Confirm": [.fail(.broken)], "Release": [.hang]])).launch(
                OpContext(1, environment: OpEnvironment(observer: journal))
            ) { _ in }
            try journal.close()

            let second = EffectLedger()
            let resumed = try store.resume(journal.runID)
            let result = run(saga(second), 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            #expect(second.names == ["Release"])
            let failure = try #require(result?.failure as? StepFailure)
            #expect(failure.undoneSteps.map(\.step) == ["Charge", "Reserve"], "Refund finished in the first session")
        }
    }
}
