import AuthFlow
import Foundation
import Operations
import Testing

/// A prompt that hands the screen's answer to `done`, on the answering thread.
private func answering<Event: Sendable>(_ done: @escaping @Sendable (Event) -> Void) -> ScreenPrompt<Event> {
    ScreenPrompt(cancellation: nil, deliverOn: nil) { answer in
        if case .success(let event) = answer { done(event) }
    }
}

struct ScreensTests {
    @Test func scriptedScreensAnswerInOrderAndRecord() async throws {
        let wrong = try SMSCode("000000", length: 6)
        let right = try SMSCode("123456", length: 6)
        let screens = ScriptedScreens(
            phone: [.submitted(Fixtures.phone)], terms: [.accepted],
            code: [.submitted(wrong), .resendRequested, .submitted(right)])
        let terms = TermsOfUse(version: "1", text: "Terms.")
        let codeModel = CodeViewModel(api: modelAPI, phone: Fixtures.phone, codeLength: 6)

        #expect(
            try await awaitCompletion { screens.show(PhoneViewModel(api: modelAPI), answering($0)) }
                == .submitted(Fixtures.phone))
        #expect(
            try await awaitCompletion { screens.show(TermsViewModel(api: modelAPI, terms: terms), answering($0)) }
                == .accepted)
        #expect(try await awaitCompletion { screens.show(codeModel, answering($0)) } == .submitted(wrong))
        let retry = codeModel.failed(with: .invalidCode(attemptsLeft: 2))
        #expect(try await awaitCompletion { screens.show(retry, answering($0)) } == .resendRequested)
        #expect(try await awaitCompletion { screens.show(retry, answering($0)) } == .submitted(right))
        screens.dismiss()

        #expect(
            screens.records == [
                .phone(PhoneViewModel(api: modelAPI)), .terms(TermsViewModel(api: modelAPI, terms: terms)),
                .code(codeModel), .code(retry),
                .code(retry), .dismissed,
            ])
        #expect(screens.unanswered.isEmpty)
    }

    @Test func runningOutOfScriptEndsTheFlowAndIsRecorded() async throws {
        let screens = ScriptedScreens(delivery: .asynchronous)
        #expect(try await awaitCompletion { screens.show(PhoneViewModel(api: modelAPI), answering($0)) } == .cancelled)
        let terms = TermsViewModel(api: modelAPI, terms: TermsOfUse(version: "1", text: ""))
        #expect(try await awaitCompletion { screens.show(terms, answering($0)) } == .declined)
        #expect(screens.unanswered == [.phone, .terms])
    }

    @Test func viewModelsChangeByMakingNewValues() {
        let model = CodeViewModel(api: modelAPI, phone: Fixtures.phone, codeLength: 6, resendAfter: 30)
        let failed = model.failed(with: .invalidCode(attemptsLeft: 1))
        #expect(model.errorMessage == nil)
        #expect(failed.attemptsLeft == 1)
        #expect(failed.errorMessage == "The code is wrong. You have 1 attempt left.")
        let resent = failed.resent(CodeDelivery(resendAfter: 60, codeLength: 4))
        #expect(resent.errorMessage == nil)
        #expect(resent.codeLength == 4)
        #expect(resent.attemptsLeft == 1)
        #expect(model.prompt == "Enter the 6-digit code sent to +79991234567")

        let phone = PhoneViewModel(api: modelAPI).failed(with: .invalidPhone, phone: Fixtures.phone)
        #expect(phone.input == "+79991234567")
        #expect(phone.errorMessage == AuthError.invalidPhone.description)

        let terms = TermsViewModel(api: modelAPI, terms: TermsOfUse(version: "1", text: "Old."), isUpdate: true)
        #expect(terms.title == "The terms of use have changed")
        let newer = terms.failed(
            with: .termsOutdated(currentVersion: "2"), terms: TermsOfUse(version: "2", text: "New."))
        #expect(newer.terms.version == "2")
        #expect(newer.isUpdate)
    }

    @Test func screenEventsDoNotPrintCodes() throws {
        let event = CodeScreenEvent.submitted(try SMSCode("834271", length: 6))
        #expect(!"\(event)".contains("834271"))
        #expect(!String(reflecting: event).contains("834271"))
    }
}
