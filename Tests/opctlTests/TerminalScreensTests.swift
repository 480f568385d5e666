import AuthFlow
import AuthSimulator
import Foundation
import Operations
import OperationsRunner
import Synchronization
import Testing

@testable import opctl

/// The terminal's screens ask through the engine's `ScreenPrompt` like any adopter's: with no
/// terminal and no answer given, the question ends as `PromptUnanswerable` — a cancellation that
/// undoes nothing — and the option that was missing is kept for the command's hint.
struct TerminalScreensTests {
    private let console = Console(
        out: { _ in }, err: { _ in }, readLine: { nil }, inputIsTerminal: false, errorIsTerminal: false,
        environment: [:])

    @Test func withoutATerminalTheCodeQuestionCannotBeAnswered() throws {
        let screens = TerminalScreens(console: console, terms: .accept, codes: [], command: "run")
        let answer = Mutex<Result<CodeScreenEvent, any Error>?>(nil)
        let prompt = ScreenPrompt<CodeScreenEvent>(cancellation: nil, operation: "CodeOp", deliverOn: nil) { result in
            answer.withLock { $0 = result }
        }
        screens.show(
            CodeViewModel(
                api: HTTPAuthAPI(transport: SimulatedBackend()), phone: try PhoneNumber(parsing: "+7 999 123-45-67"),
                codeLength: 6), prompt)
        let delivered = try #require(answer.withLock { $0 })
        guard case .failure(let error) = delivered else {
            Issue.record("the screen answered \(delivered)")
            return
        }
        let unanswerable = try #require(error as? PromptUnanswerable)
        #expect(unanswerable.question == "CodeOp")
        #expect(unanswerable.reason.hasPrefix("missing --code CODE or --code-stdin"))
        #expect(error.isCancellation)
        #expect(screens.inputError?.message.hasPrefix("missing --code CODE") == true)
    }

    @Test func aGivenCodeIsTheAnswerOnTheAskingThread() throws {
        let screens = TerminalScreens(console: console, terms: .accept, codes: ["123456"], command: "run")
        let answer = Mutex<CodeScreenEvent?>(nil)
        let prompt = ScreenPrompt<CodeScreenEvent>(cancellation: nil, deliverOn: screens.promptDelivery) { result in
            answer.withLock { $0 = try? result.get() }
        }
        screens.show(
            CodeViewModel(
                api: HTTPAuthAPI(transport: SimulatedBackend()), phone: try PhoneNumber(parsing: "+7 999 123-45-67"),
                codeLength: 6), prompt)
        #expect(
            answer.withLock { $0 } == .submitted(try SMSCode("123456", length: 6)), "delivered before show returned")
    }
}
