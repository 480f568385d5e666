import AuthFlow
import AuthSimulator
import Foundation
import Operations
import OperationsTesting
import Testing

/// The app's main scenario against the real client over the simulated backend.
struct AppScenarioTests {
    /// Signs in once through ``AuthScenario``, as an earlier run of the app did, and returns the
    /// saved token with a harness for the next start over the same backend and storage.
    private func signedIn(nextScreens: ScriptedScreens) async throws
        -> (token: AuthToken, next: SignInHarness)
    {
        let first = SignInHarness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted], code: [.submitted(Fixtures.code)]))
        let token = try await first.signIn().value()
        first.backend.resetRequestCounts()
        let next = SignInHarness(
            backend: first.backend, clock: first.clock, storage: first.storage, screens: nextScreens)
        return (token, next)
    }

    @Test func withNoSavedTokenItSignsIn() async throws {
        let harness = SignInHarness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted], code: [.submitted(Fixtures.code)]))
        let report = await harness.startApp()

        expectKeptContract(report)
        let outcome = try report.value()
        #expect(outcome == .signedIn(outcome.token))
        #expect(try harness.storage.loadAuthToken() == outcome.token)
        #expect(
            harness.backend.requestCounts == [.phone: 1, .terms: 1, .termsAccept: 1, .codeSend: 1, .codeVerify: 1])
        #expect(harness.screens.unanswered.isEmpty)
    }

    @Test func withASavedTokenAndTheSameTermsItIsAlreadySignedIn() async throws {
        let (saved, harness) = try await signedIn(nextScreens: ScriptedScreens())
        let report = await harness.startApp()

        expectKeptContract(report)
        #expect(try report.value() == .alreadySignedIn(saved))
        #expect(harness.backend.requestCounts == [.session: 1])
        #expect(harness.backend.requestCount(for: .phone) == 0)
        #expect(harness.screens.records.isEmpty)
        #expect(try harness.storage.loadAuthToken() == saved)
        #expect(
            harness.recorder.stepLines == [
                "CheckSessionOp launched #1", "CheckSessionOp succeeded #1", "AuthScenario skipped",
                "TermsOfUseOp skipped", "SaveTokenOp skipped",
            ])
    }

    @Test func withASavedTokenAndChangedTermsOnlyTheTermsAreAcceptedAgain() async throws {
        let (saved, harness) = try await signedIn(nextScreens: ScriptedScreens(terms: [.accepted]))
        harness.backend.publishTerms(version: "2", text: "New terms.")
        let report = await harness.startApp()

        expectKeptContract(report)
        let outcome = try report.value()
        #expect(outcome == .acceptedNewTerms(outcome.token))
        #expect(outcome.token != saved)
        #expect(try harness.storage.loadAuthToken() == outcome.token)
        #expect(harness.backend.requestCounts == [.session: 1, .terms: 1, .termsAccept: 1])
        #expect(
            harness.screens.records == [
                .terms(TermsViewModel(api: modelAPI, terms: TermsOfUse(version: "2", text: "New terms."))), .dismissed,
            ])
        #expect(harness.screens.unanswered.isEmpty)

        // The new token carries the acceptance: the next start is signed in without questions.
        let again = await harness.startApp()
        #expect(try again.value() == .alreadySignedIn(outcome.token))
    }

    @Test func declinedNewTermsKeepTheSavedTokenAndEndAsCancelled() async throws {
        let (saved, harness) = try await signedIn(nextScreens: ScriptedScreens(terms: [.declined]))
        harness.backend.publishTerms(version: "2", text: "New terms.")
        let report = await harness.startApp()

        expectKeptContract(report)
        #expect((report.error as? StepFailure)?.rootCause as? SignInCancelled == .termsDeclined)
        #expect(report.error?.isCancellation == true)
        #expect(try harness.storage.loadAuthToken() == saved)
        #expect(harness.backend.requestCount(for: .termsAccept) == 0)
    }

    @Test func aSavedTokenTheBackendNoLongerAcceptsSignsInAgain() async throws {
        let foreign = AuthToken("sim1.signed-by-someone-else.0000", expiresAt: Date().addingTimeInterval(3600))
        let harness = SignInHarness(
            storage: InMemoryLocalStorage(token: foreign),
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted], code: [.submitted(Fixtures.code)]))
        let report = await harness.startApp()

        expectKeptContract(report)
        let outcome = try report.value()
        #expect(outcome == .signedIn(outcome.token))
        #expect(try harness.storage.loadAuthToken() == outcome.token)
        #expect(harness.backend.requestCount(for: .session) == 1)
        #expect(harness.backend.requestCount(for: .phone) == 1)
    }
}
