import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// Contract 19: a person who cannot answer is a cancellation, not a failure — an onboarding whose
/// code screen could not ask does not close the account it opened, and its rerun with the input
/// goes on from there.
extension JournalTests {
    @Suite struct UnanswerablePromptTests {
        /// Whether the code screen has someone to ask: the code, or nobody.
        final class CodeScreen: Sendable {
            let code: String?
            init(code: String?) { self.code = code }

            func ask(_ prompt: ScreenPrompt<String>) {
                if let code {
                    prompt.answer(code)
                } else {
                    prompt.cannotBeAnswered(because: "standard input is not a terminal")
                }
            }
        }

        /// Asks its screen for the code and finishes with it.
        final class AskCodeOp: PureOp {
            let screen: CodeScreen
            init(screen: CodeScreen) { self.screen = screen }

            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
                let completion = Completion(retaining: self, context: context, onFinish: onFinish)
                screen.ask(
                    ScreenPrompt(for: context, operation: "the SMS code") { answer in
                        completion.finish(answer.map { Int($0) ?? 0 })
                    })
            }
        }

        /// OpenAccount (undone by CloseAccount) → the code asked of a person → Activate.
        private func onboarding(_ ledger: EffectLedger, _ screen: CodeScreen) -> Scenario<Int, Int> {
            Scenario("Onboarding") { chain in
                chain
                    .then(ledger.step("OpenAccount").compensated(by: ledger.step("CloseAccount")))
                    .then(Step("AskCode") { AskCodeOp(screen: screen) })
                    .then(ledger.step("Activate"))
            }
        }

        @Test func aScreenNobodyCanAnswerEndsTheRunCancelledAndUndoesNothing() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let ledger = EffectLedger()
                let scenario = onboarding(ledger, CodeScreen(code: nil))
                let journal = try store.create(scenario: scenario)
                let result = run(scenario, 1, environment: OpEnvironment(observer: journal))
                try journal.close()
                let failure = try #require(result?.failure as? StepFailure)
                #expect(
                    failure.rootCause as? PromptUnanswerable
                        == PromptUnanswerable(question: "the SMS code", reason: "standard input is not a terminal"))
                #expect(failure.isCancellation)
                #expect(ledger.names == ["OpenAccount"], "the account is not closed")
                let record = try store.load(journal.runID)
                #expect(record.status == .cancelled)
                #expect(!record.isUndone)

                // Rerun with someone to answer: the account opened before is replayed, not opened again.
                let again = EffectLedger()
                let answered = onboarding(again, CodeScreen(code: "7"))
                let resumed = try store.resume(journal.runID, scenario: answered)
                let rerun = run(answered, 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
                try resumed.close()
                #expect(rerun?.success == 8)
                #expect(again.names == ["Activate"])
            }
        }

        @Test func aFailureHandlerThatCouldNotAskStopsTheStepAsACancellation() {
            let ledger = EffectLedger(["Pay": [.fail(.broken)]])
            let scenario = Scenario<Int, Int>("Checkout") { chain in
                chain
                    .then(ledger.step("Reserve").compensated(by: ledger.step("Release")))
                    .then(
                        ledger.step("Pay").onFailure { failure, decide in
                            let prompt = ScreenPrompt<Int>(
                                cancellation: failure.cancellation, operation: "another card"
                            ) {
                                answer in
                                switch answer {
                                case .success(let card): decide(.relaunch(card))
                                case .failure(let error): decide(.stop(because: error))
                                }
                            }
                            prompt.cannotBeAnswered(because: "nobody is at the terminal")
                        })
            }
            let result = run(scenario, 1, environment: OpEnvironment())
            #expect(result?.failure?.isCancellation == true)
            #expect((result?.failure as? StepFailure)?.rootCause is PromptUnanswerable)
            #expect(ledger.names == ["Reserve", "Pay"], "the reservation is kept for a rerun with a card")
        }

        @Test func aPlainErrorFromAScreenIsAFailureForGoodAndUndoes() {
            // The row of the Screens article to avoid: shown here so the difference is tested.
            struct NoTerminal: Error {}
            let ledger = EffectLedger()
            let scenario = Scenario<Int, Int>("Onboarding") { chain in
                chain
                    .then(ledger.step("OpenAccount").compensated(by: ledger.step("CloseAccount")))
                    .then(Step("AskCode") { FailingScreenOp(error: NoTerminal()) })
            }
            _ = run(scenario, 1, environment: OpEnvironment())
            #expect(ledger.names == ["OpenAccount", "CloseAccount"])
        }

        final class FailingScreenOp: PureOp {
            let error: any Error & Sendable
            init(error: any Error & Sendable) { self.error = error }
            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
                let completion = Completion(retaining: self, context: context, onFinish: onFinish)
                ScreenPrompt<Int>(for: context) { completion.finish($0) }.decline(error)
            }
        }
    }
}
