import AuthFlow
import AuthSimulator
import Foundation
import Operations
import OperationsTesting
import Testing

/// Events from outside the running main scenario, posted at each of its step boundaries:
/// before CheckSessionOp, AuthScenario, TermsOfUseOp, SaveTokenOp, and at the end.
struct AppEventTests {
    /// The boundaries, by the top-level step after which the event is posted (-1: before the
    /// launch).
    static let boundaries = [-1, 0, 1, 2, 3]

    /// Posts `event` (and runs `also`, e.g. the backend publishing new terms) once the step at
    /// `index` of the main scenario ended, so it waits at the boundary after it.
    struct PostAfter: ScenarioObserver {
        let index: Int
        let inbox: EventInbox<AppEvent>
        let event: AppEvent
        let also: @Sendable () -> Void

        func scenario(_ event: ScenarioEvent) {
            guard event.address.path.count == 1, event.address.path[0].index == index else { return }
            switch event.kind {
            case .stepSucceeded, .stepSkipped, .stepReplayed:
                also()
                inbox.post(self.event)
            default: break
            }
        }
    }

    private func startApp(
        _ harness: SignInHarness, posting event: AppEvent, after index: Int, also: @escaping @Sendable () -> Void = {}
    ) async -> LaunchReport<AppOutcome> {
        let inbox = EventInbox<AppEvent>()
        let factory = AuthFlowFactory(
            api: harness.api, storage: harness.storage, screens: harness.screens,
            retry: .transient(maxAttempts: 3, backoff: .immediate), events: inbox)
        if index < 0 {
            also()
            inbox.post(event)
        }
        let observer = PostAfter(index: index, inbox: inbox, event: event, also: also)
        let context = OpContext<PhoneNumber?>(
            nil, environment: OpEnvironment(scheduler: harness.scheduler, observer: observer, random: { 0 }))
        return await LaunchProbe.awaitLaunch(factory.makeAppScenario, context: context)
    }

    private static func signInScreens() -> ScriptedScreens {
        ScriptedScreens(
            phone: [.submitted(Fixtures.phone)], terms: [.accepted, .accepted], code: [.submitted(Fixtures.code)])
    }

    /// Signed out on another device — the backend revoked the session the run holds — whenever
    /// the push arrives: the flow ends as cancelled and no token is left. Before the sign-in has
    /// saved one, there is nothing to end and the flow goes on.
    @Test(arguments: boundaries)
    func signedOutElsewhereEndsTheFlowAndClearsTheToken(after index: Int) async throws {
        let harness = SignInHarness(screens: Self.signInScreens())
        let (backend, storage) = (harness.backend, harness.storage)
        let report = await startApp(harness, posting: .signedOutElsewhere, after: index) {
            if let token = (try? storage.loadAuthToken()) ?? nil { backend.revoke(token) }
        }

        expectKeptContract(report)
        if index < 1 {
            #expect(try report.value() == .signedIn(report.value().token), "nobody was signed in to sign out")
            #expect(try harness.storage.loadAuthToken() != nil)
        } else {
            #expect(report.error is SignedOutElsewhere, "\(String(describing: report.error))")
            #expect(report.error?.isCancellation == true)
            #expect(try harness.storage.loadAuthToken() == nil)
        }
    }

    /// A push about a sign-out older than the session the run holds (signed in here since): the
    /// backend still accepts the session, so the flow goes on and the token stays.
    @Test(arguments: [1, 2, 3])
    func aStaleSignOutLeavesANewerSessionAlone(after index: Int) async throws {
        let harness = SignInHarness(screens: Self.signInScreens())
        let report = await startApp(harness, posting: .signedOutElsewhere, after: index)

        expectKeptContract(report)
        let outcome = try report.value()
        #expect(try harness.storage.loadAuthToken() == outcome.token)
    }

    /// Terms published anew while the flow runs, with the push saying so: whenever it arrives,
    /// the person ends up having accepted the current terms, and no version is shown twice.
    @Test(arguments: boundaries)
    func changedTermsAreShownOnceAndAccepted(after index: Int) async throws {
        let harness = SignInHarness(screens: Self.signInScreens())
        let backend = harness.backend
        let report = await startApp(harness, posting: .termsChanged, after: index) {
            backend.publishTerms(version: "2", text: "Updated terms for tests.")
        }

        expectKeptContract(report)
        _ = try report.value()
        let shown = harness.screens.records.compactMap { record -> String? in
            if case .terms(let model) = record { model.terms.version } else { nil }
        }
        #expect(shown.last == "2", "\(shown)")
        #expect(Set(shown).count == shown.count, "a version was shown twice: \(shown)")
        #expect(harness.screens.unanswered.isEmpty)

        // The saved sign-in has accepted the current terms: the next start asks nothing.
        let next = SignInHarness(
            backend: backend, clock: harness.clock, storage: harness.storage, screens: ScriptedScreens())
        let again = await next.startApp()
        #expect(try again.value() == .alreadySignedIn(again.value().token))
        #expect(next.screens.records.isEmpty)
    }

    /// The same for someone already signed in: the run's own check and terms step, or the
    /// reaction at the end, show the new terms — once.
    @Test(arguments: boundaries)
    func changedTermsForASavedSignInAreShownOnce(after index: Int) async throws {
        let first = SignInHarness(screens: Self.signInScreens())
        _ = try await first.signIn().value()
        let smsBefore = first.backend.sentSMS.count
        let harness = SignInHarness(
            backend: first.backend, clock: first.clock, storage: first.storage,
            screens: ScriptedScreens(terms: [.accepted]))
        let backend = harness.backend
        let report = await startApp(harness, posting: .termsChanged, after: index) {
            backend.publishTerms(version: "2", text: "Updated terms for tests.")
        }

        expectKeptContract(report)
        _ = try report.value()
        #expect(harness.screens.records.filter(\.isTerms).count == 1, "\(harness.screens.records)")
        #expect(harness.screens.unanswered.isEmpty)
        #expect(harness.backend.sentSMS.count == smsBefore, "nobody was signed in again")
    }
}
