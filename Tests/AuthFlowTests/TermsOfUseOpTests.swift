import AuthFlow
import AuthFlowTesting
import Operations
import OperationsTesting
import Testing

struct TermsOfUseOpTests {
    static let acceptance = TermsAcceptance(acceptedVersion: "3", phoneToken: Fixtures.acceptedPhoneToken)

    private func api(
        fetched: Result<TermsOfUse, AuthError> = .success(Fixtures.terms),
        accepted: Result<TermsAcceptance, AuthError> = .success(acceptance),
        delivery: StubAuthAPI.Delivery = .immediate
    ) -> StubAuthAPI {
        StubAuthAPI(
            fetchTerms: { _ in fetched }, acceptTerms: { _, _ in accepted }, delivery: delivery,
            unimplemented: Fixtures.unexpectedCall)
    }

    @Test(arguments: [StubAuthAPI.Delivery.immediate, .asynchronous])
    func fetchesShowsAndAcceptsTheTerms(delivery: StubAuthAPI.Delivery) async throws {
        let api = api(delivery: delivery)
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(terms: [.accepted], delivery: .init(delivery))
        let factory = Fixtures.factory(api: api, storage: storage, screens: screens)
        let report = await OwnThread.run { LaunchProbe.launch(factory.makeTermsOfUseOp(), input: Fixtures.phoneToken) }

        expectKeptContract(report)
        #expect(try report.value() == Self.acceptance)
        #expect(
            api.calls == [
                .fetchTerms(phoneToken: Fixtures.phoneToken),
                .acceptTerms(version: "3", phoneToken: Fixtures.phoneToken),
            ])
        #expect(screens.records == [.terms(TermsViewModel(api: modelAPI, terms: Fixtures.terms)), .dismissed])
        #expect(screens.unanswered.isEmpty)
        #expect(storage.calls.isEmpty, "a pure operation leaves storage untouched")
    }

    static let fetchErrors: [AuthError] = [.unauthorized] + Fixtures.anyEndpointErrors

    @Test(arguments: fetchErrors)
    func fetchErrorsFinishTheLaunchBeforeAnyScreen(error: AuthError) {
        let api = api(fetched: .failure(error))
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(terms: [.accepted])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: screens).makeTermsOfUseOp(),
            input: Fixtures.phoneToken)

        expectKeptContract(report)
        #expect(report.error as? AuthError == error)
        #expect(api.calls.map(\.method) == [.fetchTerms])
        #expect(screens.records.isEmpty)
        #expect(storage.calls.isEmpty)
    }

    static let acceptErrors: [AuthError] =
        [.termsOutdated(currentVersion: "4"), .termsOutdated(currentVersion: nil), .unauthorized]
        + Fixtures.anyEndpointErrors

    @Test(arguments: acceptErrors)
    func acceptErrorsFinishTheLaunchAndDismissTheScreen(error: AuthError) {
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(terms: [.accepted])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api(accepted: .failure(error)), storage: storage, screens: screens)
                .makeTermsOfUseOp(),
            input: Fixtures.phoneToken)

        expectKeptContract(report)
        #expect(report.error as? AuthError == error)
        #expect(screens.records == [.terms(TermsViewModel(api: modelAPI, terms: Fixtures.terms)), .dismissed])
        #expect(storage.calls.isEmpty)
    }

    @Test func decliningIsACancellationAndAcceptsNothing() {
        let api = api()
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(terms: [.declined])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: screens).makeTermsOfUseOp(),
            input: Fixtures.phoneToken)

        expectKeptContract(report)
        #expect(report.error as? SignInCancelled == .termsDeclined)
        #expect(report.error?.isCancellation == true)
        #expect(api.calls == [.fetchTerms(phoneToken: Fixtures.phoneToken)])
        #expect(screens.records == [.terms(TermsViewModel(api: modelAPI, terms: Fixtures.terms)), .dismissed])
        #expect(storage.calls.isEmpty)
    }

    @Test func cancellationWhileFetchingFinishesOnceAsCancelled() {
        let token = CancellationToken()
        let api = StubAuthAPI(
            fetchTerms: { _ in
                token.cancel()
                return .success(Fixtures.terms)
            }, acceptTerms: { _, _ in .success(Self.acceptance) }, unimplemented: Fixtures.unexpectedCall)
        let storage = RecordingLocalStorage()
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: ScriptedScreens(terms: [.accepted]))
                .makeTermsOfUseOp(),
            context: OpContext(Fixtures.phoneToken, cancellation: token))

        expectKeptContract(report)
        #expect(report.error as? OpError == .cancelled)
        // The screen's prompt closed with the launch: its answer is dropped, and the terms are
        // not accepted on the backend for a launch that is over.
        #expect(report.diagnostics.isEmpty)
        #expect(api.calls == [.fetchTerms(phoneToken: Fixtures.phoneToken)])
        #expect(storage.calls.isEmpty)
    }

    /// It makes the backend act, so it is not pure: its requests carry the launch's key.
    @Test func hasSideEffects() {
        #expect(Purity.of(TermsOfUseOp.self) == .sideEffects)
    }
}
