import AuthFlow
import AuthSimulator
import Foundation
import Operations
import OperationsTesting
import Synchronization
import Testing

/// What the backend sends the person back for, mid-run: terms published anew after the terms
/// screen, or between showing and accepting them, and a phone token that expired. With someone
/// to ask, the verification is launched again as a whole and the run goes on; a script cannot
/// answer, so the run ends with the backend's reason.
struct VerificationCorrectionTests {
    /// Runs `body` on the first answer of `call` only.
    private static func once(
        _ call: HookedAuthAPI.Call, _ body: @escaping @Sendable () -> Void
    ) -> @Sendable (HookedAuthAPI.Call) -> Void {
        let fired = Atomic<Bool>(false)
        return { answered in
            guard answered == call, !fired.exchange(true, ordering: .relaxed) else { return }
            body()
        }
    }

    private func signIn(
        _ harness: SignInHarness, asksAgain: Bool = true, hook: @escaping @Sendable (HookedAuthAPI.Call) -> Void
    ) async -> LaunchReport<AuthToken> {
        let factory = AuthFlowFactory(
            api: HookedAuthAPI(base: harness.api, hook: hook), storage: harness.storage, screens: harness.screens,
            retry: .transient(maxAttempts: 3, backoff: .immediate), asksAgain: asksAgain)
        return await LaunchProbe.awaitLaunch(
            factory.makeAuthScenario, context: harness.context(nil))
    }

    private static let newTerms = TermsOfUse(version: "2", text: "Updated terms for tests.")

    /// `409 terms_not_accepted` from `code/send`: the terms changed after the terms screen. The
    /// new ones are fetched and shown, then the code is sent — one SMS, one phone screen.
    @Test func termsChangedAfterTheTermsScreenAreShownAgainAndTheRunGoesOn() async throws {
        let harness = SignInHarness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted, .accepted], code: [.submitted(Fixtures.code)]))
        let backend = harness.backend
        let report = await signIn(
            harness,
            hook: Self.once(.acceptTerms) { backend.publishTerms(version: "2", text: Self.newTerms.text) })

        expectKeptContract(report)
        #expect(try harness.storage.loadAuthToken() == report.value())
        #expect(
            harness.screens.records.filter(\.isTerms) == [
                .terms(harness.termsModel), .terms(TermsViewModel(api: modelAPI, terms: Self.newTerms)),
            ])
        #expect(harness.screens.records.filter(\.isPhone).count == 1)
        #expect(harness.backend.requestCount(for: .codeSend) == 2, "the refused send and the one that went")
        #expect(harness.backend.sentSMS.count == 1)
        #expect(
            harness.recorder.stepLines.filter { $0.hasPrefix("VerificationScenario") } == [
                "VerificationScenario launched #1",
                "VerificationScenario failed #1: CodeOp failed: \(AuthError.termsOutdated(currentVersion: "2"))",
                "VerificationScenario launched #2", "VerificationScenario succeeded #2",
            ])
        #expect(harness.screens.unanswered.isEmpty)
    }

    /// `409 terms_outdated` from `terms/accept`: the terms changed while the screen showed them.
    @Test func termsChangedWhileShownAreShownAgain() async throws {
        let harness = SignInHarness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted, .accepted], code: [.submitted(Fixtures.code)]))
        let backend = harness.backend
        let report = await signIn(
            harness, hook: Self.once(.fetchTerms) { backend.publishTerms(version: "2", text: Self.newTerms.text) })

        expectKeptContract(report)
        _ = try report.value()
        #expect(
            harness.screens.records.filter(\.isTerms).last
                == .terms(TermsViewModel(api: modelAPI, terms: Self.newTerms)))
        #expect(harness.backend.requestCount(for: .termsAccept) == 2)
        #expect(harness.backend.sentSMS.count == 1)
    }

    /// An expired phone token: the attempt starts again from the phone screen, the number
    /// filled in, and goes on with the new token.
    @Test func anExpiredPhoneTokenBringsThePhoneScreenBackWithTheNumber() async throws {
        let harness = SignInHarness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone), .submitted(Fixtures.phone)], terms: [.accepted],
                code: [.submitted(Fixtures.code)]))
        let clock = harness.clock
        let report = await signIn(harness, hook: Self.once(.submitPhone) { clock.advance(by: 3600) })

        expectKeptContract(report)
        #expect(try harness.storage.loadAuthToken() == report.value())
        #expect(
            harness.screens.records.filter(\.isPhone) == [
                .phone(PhoneViewModel(api: modelAPI)),
                .phone(PhoneViewModel(api: modelAPI, input: Fixtures.phone.e164)),
            ])
        #expect(harness.backend.requestCount(for: .phone) == 2)
        #expect(
            harness.recorder.stepLines.contains(
                "VerificationScenario failed #1: TermsOfUseOp failed: \(AuthError.unauthorized)"))
        #expect(harness.recorder.stepLines.contains("PhoneOp launched #1"))
        #expect(harness.screens.unanswered.isEmpty)
    }

    /// Nobody to ask: the run ends with the backend's reason, and the terms are not shown again.
    @Test func aScriptedRunEndsWithTheReason() async throws {
        let harness = SignInHarness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted], code: [.submitted(Fixtures.code)]))
        let backend = harness.backend
        let report = await signIn(
            harness, asksAgain: false,
            hook: Self.once(.acceptTerms) { backend.publishTerms(version: "2", text: Self.newTerms.text) })

        expectKeptContract(report)
        let failure = try #require(report.error as? StepFailure)
        #expect(failure.rootCause as? AuthError == .termsOutdated(currentVersion: "2"))
        #expect(failure.stepPath == ["VerificationScenario", "CodeOp"])
        #expect(harness.screens.records.filter(\.isTerms).count == 1)
        #expect(harness.backend.sentSMS.isEmpty)
    }

    /// Terms that keep changing are the backend's problem: the verification is launched again
    /// a bounded number of times, then the run ends.
    @Test func termsThatKeepChangingEndTheRunAfterTheLastCorrection() async throws {
        let corrections = AuthScenario.verificationCorrections
        let harness = SignInHarness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: Array(repeating: .accepted, count: corrections + 1)))
        let backend = harness.backend
        let published = Atomic<Int>(0)
        let report = await signIn(harness) { call in
            guard call == .acceptTerms else { return }
            let version = published.add(1, ordering: .relaxed).newValue + 1
            backend.publishTerms(version: "\(version)", text: "Terms v\(version).")
        }

        expectKeptContract(report)
        #expect((report.error as? StepFailure)?.rootCause is AuthError)
        #expect(harness.screens.records.filter(\.isTerms).count == corrections + 1)
        #expect(harness.backend.sentSMS.isEmpty)
        #expect(harness.screens.unanswered.isEmpty)
    }
}
