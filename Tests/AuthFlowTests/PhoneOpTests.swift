import AuthFlow
import Operations
import Testing

struct PhoneOpTests {
    static let session = PhoneSession(phoneToken: Fixtures.phoneToken, termsRequired: true, codeLength: 6)

    private func api(
        _ answer: Result<PhoneSession, AuthError> = .success(session), delivery: StubAuthAPI.Delivery = .immediate
    ) -> StubAuthAPI {
        StubAuthAPI(submitPhone: { _ in answer }, delivery: delivery, unimplemented: Fixtures.unexpectedCall)
    }

    @Test(arguments: [StubAuthAPI.Delivery.immediate, .asynchronous])
    func submitsTheNumberAndReturnsTheAttempt(delivery: StubAuthAPI.Delivery) async throws {
        let api = api(delivery: delivery)
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)], delivery: .init(delivery))
        let factory = Fixtures.factory(api: api, storage: storage, screens: screens)
        let report = await offThePool { LaunchProbe.launch(factory.makePhoneOp(), input: nil) }

        expectKeptContract(report)
        #expect(
            try report.value()
                == SignInAttempt(
                    phone: Fixtures.phone, phoneToken: Fixtures.phoneToken, termsRequired: true, codeLength: 6))
        #expect(api.calls == [.submitPhone(Fixtures.phone)])
        #expect(screens.records == [.phone(PhoneViewModel()), .dismissed])
        #expect(screens.unanswered.isEmpty)
        #expect(storage.calls.isEmpty, "a pure operation leaves storage untouched")
    }

    @Test func prefillsTheNumberItWasLaunchedWith() throws {
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api(), screens: screens).makePhoneOp(), input: Fixtures.phone)
        expectKeptContract(report)
        #expect(screens.records == [.phone(PhoneViewModel(input: "+79991234567")), .dismissed])
    }

    static let errors: [AuthError] = [.invalidPhone, .locked(retryAfter: 300)] + Fixtures.anyEndpointErrors

    @Test(arguments: errors)
    func backendErrorsFinishTheLaunchAsTheyAre(error: AuthError) {
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api(.failure(error)), storage: storage, screens: screens).makePhoneOp(), input: nil)

        expectKeptContract(report)
        #expect(report.error as? AuthError == error)
        #expect(report.error?.isCancellation == false)
        #expect(screens.records == [.phone(PhoneViewModel()), .dismissed])
        #expect(storage.calls.isEmpty)
    }

    @Test func closingTheScreenIsACancellationAndSendsNothing() {
        let api = api()
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(phone: [.cancelled])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: screens).makePhoneOp(), input: nil)

        expectKeptContract(report)
        #expect(report.error as? SignInCancelled == .phoneScreenClosed)
        #expect(report.error?.isCancellation == true)
        #expect(api.calls.isEmpty)
        #expect(screens.records == [.phone(PhoneViewModel()), .dismissed])
        #expect(storage.calls.isEmpty)
    }

    @Test func cancellationWhileTheRequestIsInFlightFinishesOnceAsCancelled() {
        let token = CancellationToken()
        let api = StubAuthAPI(
            submitPhone: { _ in
                token.cancel()
                return .success(Self.session)
            }, unimplemented: Fixtures.unexpectedCall)
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: screens).makePhoneOp(),
            context: OpContext(nil, cancellation: token))

        expectKeptContract(report)
        #expect(report.error as? OpError == .cancelled)
        #expect(report.diagnostics.map(\.kind) == [.lateFinishDropped])
        #expect(storage.calls.isEmpty)
    }

    @Test func aLaunchCancelledBeforeItStartsFinishesOnceAsCancelled() {
        let token = CancellationToken()
        token.cancel()
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api(), screens: screens).makePhoneOp(), context: OpContext(nil, cancellation: token))
        expectKeptContract(report)
        #expect(report.error as? OpError == .cancelled)
    }

    @Test func isPure() {
        #expect(Purity.of(PhoneOp.self) == .pure)
    }
}

extension ScriptedScreens.Delivery {
    /// The screens' delivery matching an API stub's, so a test runs wholly synchronously or not.
    init(_ delivery: StubAuthAPI.Delivery) {
        self = delivery == .immediate ? .immediate : .asynchronous
    }
}
