import Foundation
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

@testable import OperationsJournal

/// Contract 17: whatever fails a run for good, the journal names the step, and no later session
/// goes past the undoing — the checkout whose payment never settled is never confirmed by a
/// rerun, however often it is rerun and whatever the payment says by then.
extension JournalTests {
    @Suite struct UndoneStaysUndoneTests {
        /// Reserve (undone by Release) → a payment polled until settled → Confirm.
        private func checkout(_ ledger: EffectLedger, _ board: SettlementBoard, polls: Int = 2) -> Scenario<Int, Int> {
            Scenario("Checkout") { chain in
                chain
                    .then(ledger.step("Reserve").compensated(by: ledger.step("Release")))
                    .then(Step(board.makeOp), repeatingEvery: .seconds(5), until: \.isSettled, atMost: polls)
                    .map { $0.polls }
                    .then(ledger.step("Confirm"))
            }
        }

        /// Runs the checkout against `board` until the run ends (or hangs), driving the waits
        /// between polls, and closes the journal as the process would.
        private func runCheckout(
            _ journal: ScenarioJournal, _ ledger: EffectLedger, _ board: SettlementBoard, replay: Bool = false
        ) -> Result<Int, any Error>? {
            let scheduler = TestScheduler()
            let box = FinishBox<Int>()
            let environment = OpEnvironment(
                scheduler: scheduler, observer: journal, replay: replay ? journal.replay : nil)
            checkout(ledger, board).launch(OpContext(1, environment: environment), onFinish: box.onFinish)
            for _ in 0..<4 where box.count == 0 { scheduler.advance(by: .seconds(5)) }
            return box.first
        }

        @Test func aPollOutOfPollsIsTheStepTheJournalNamesForTheUndoing() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: checkout(EffectLedger(), SettlementBoard(pendingPolls: 0)))
                let ledger = EffectLedger()
                let result = runCheckout(journal, ledger, SettlementBoard(pendingPolls: 100))
                try journal.close()
                let failure = try #require(result?.failure as? StepFailure)
                #expect(failure.error as? WaitError == .stillNotDone(step: "SettlementOp", polls: 2))
                #expect(ledger.names == ["Reserve", "Release"], "the reservation is released")
                let compensating = try #require(
                    try journalLines(journal.url).first { $0["event"] as? String == "compensating" })
                let address = try #require(compensating["address"] as? [[String: Any]])
                #expect(address.map { $0["name"] as? String } == ["SettlementOp"], "the polled step, not the scenario")
                let record = try store.load(journal.runID)
                #expect(record.isUndone)
                #expect(record.undoneSteps.map(\.name) == ["Reserve"])
            }
        }

        @Test func anUndoneRunIsNeverConfirmedByARerunEvenOnceThePaymentHasSettled() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let shape = checkout(EffectLedger(), SettlementBoard(pendingPolls: 0)).shape
                let journal = try store.create(scenario: shape)
                _ = runCheckout(journal, EffectLedger(), SettlementBoard(pendingPolls: 100))
                try journal.close()
                let lines = try Data(contentsOf: journal.url)

                for _ in 1...3 {
                    #expect(throws: JournalError.alreadyUndone(journal.url, undone: ["Reserve"])) {
                        try store.resume(journal.runID, scenario: shape)
                    }
                    #expect(throws: JournalError.alreadyUndone(journal.url, undone: ["Reserve"])) {
                        try store.resume(journal.runID)
                    }
                }
                #expect(try Data(contentsOf: journal.url) == lines, "a refused rerun writes nothing")
                let checks = try store.checkResumable(by: [shape])
                #expect(checks.map(\.verdict) == [.undone(["Reserve"])])
                #expect(checks.first?.isStranded == false)
                #expect(checks.first?.description.hasSuffix("undone (Reserve), nothing to resume") == true)
            }
        }

        @Test func aRunKilledWhileUndoingAfterItsPollsFinishesTheUndoAndNothingElse() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let shape = checkout(EffectLedger(), SettlementBoard(pendingPolls: 0)).shape
                let journal = try store.create(scenario: shape)
                let first = EffectLedger(["Release": [.hang]])
                _ = runCheckout(journal, first, SettlementBoard(pendingPolls: 100))
                try journal.close()
                let releaseKey = try #require(first.launches.last?.key)
                #expect(try store.load(journal.runID).status == .interrupted)

                // The payment has settled by now: a rerun that polled again would confirm.
                let settled = SettlementBoard(pendingPolls: 0)
                let second = EffectLedger()
                let resumed = try store.resume(journal.runID, scenario: shape)
                let result = runCheckout(resumed, second, settled, replay: true)
                try resumed.close()
                #expect(settled.polls == 0, "the step that failed for good is not polled again")
                #expect(second.names == ["Release"], "only the undo left in doubt is finished")
                #expect(second.launches.first?.key == releaseKey)
                #expect((result?.failure as? StepFailure)?.step == "SettlementOp", "\(String(describing: result))")
                #expect(try store.load(journal.runID).isUndone)
                #expect(throws: JournalError.alreadyUndone(journal.url, undone: ["Reserve"])) {
                    try store.resume(journal.runID, scenario: shape)
                }
            }
        }

        @Test func aJournalThatNamesTheScenarioForItsUndoingFailsTheStepItReachedLastAgain() throws {
            // Written by a build whose polled step did not note its failure: the `compensating`
            // line names the scenario. A rerun must still not poll past the undoing.
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let shape = checkout(EffectLedger(), SettlementBoard(pendingPolls: 0)).shape
                let journal = try store.create(scenario: shape)
                _ = runCheckout(journal, EffectLedger(["Release": [.hang]]), SettlementBoard(pendingPolls: 100))
                try journal.close()
                try rewriteCompensatingAddress(in: journal.url, to: "[]")
                let record = try store.load(journal.runID)
                #expect(record.damagedLines.isEmpty)
                #expect(record.compensating.keys.map(\.name) == ["SettlementOp"])

                let settled = SettlementBoard(pendingPolls: 0)
                let second = EffectLedger()
                let resumed = try store.resume(journal.runID, scenario: shape)
                _ = runCheckout(resumed, second, settled, replay: true)
                try resumed.close()
                #expect(settled.polls == 0)
                #expect(second.names == ["Release"])
            }
        }

        /// Rewrites the journal as a build from before line checksums and positions would have
        /// written it (no `seq`, `prev` or `sum`, no sync mark), with the address of its
        /// `compensating` line replaced.
        private func rewriteCompensatingAddress(in url: URL, to address: String) throws {
            let text = try String(contentsOf: url, encoding: .utf8)
            let lines = text.split(separator: "\n").map { line -> String in
                var line = String(line)
                if let seq = line.range(of: #","seq":"#) { line = String(line[..<seq.lowerBound]) + "}" }
                guard line.contains(#""event":"compensating""#), let start = line.range(of: #""address":"#),
                    let end = line.range(of: #","error":"#)
                else { return line }
                return String(line[..<start.upperBound]) + address + String(line[end.lowerBound...])
            }
            try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: url.path + ".synced"))
        }
    }
}
