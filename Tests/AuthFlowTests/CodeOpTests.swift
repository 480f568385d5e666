import AuthFlow
import AuthFlowTesting
import Operations
import OperationsTesting
import Testing

struct CodeOpTests {
    /// The model the first screen shows: the attempt's phone and length, updated by the delivery.
    static let firstModel = CodeViewModel(api: modelAPI, phone: Fixtures.phone, codeLength: 6).resent(Fixtures.delivery)

    private func api(
        sent: Result<CodeDelivery, AuthError> = .success(Fixtures.delivery),
        verified: Result<AuthToken, AuthError> = .success(Fixtures.authToken),
        delivery: StubAuthAPI.Delivery = .immediate
    ) -> StubAuthAPI {
        StubAuthAPI(
            sendCode: { _ in sent }, verifyCode: { _, _ in verified }, delivery: delivery,
            unimplemented: Fixtures.unexpectedCall)
    }

    @Test(arguments: [StubAuthAPI.Delivery.immediate, .asynchronous])
    func sendsTheCodeAsksForItAndReturnsTheAuthToken(delivery: StubAuthAPI.Delivery) async throws {
        let api = api(delivery: delivery)
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(code: [.submitted(Fixtures.code)], delivery: .init(delivery))
        let factory = Fixtures.factory(api: api, storage: storage, screens: screens)
        let report = await OwnThread.run {
            LaunchProbe.launch(factory.makeCodeOp(), input: CodeRequest(attempt: Fixtures.attempt))
        }

        expectKeptContract(report)
        #expect(try report.value() == Fixtures.authToken)
        #expect(
            api.calls == [
                .sendCode(phoneToken: Fixtures.phoneToken), .verifyCode(Fixtures.code, phoneToken: Fixtures.phoneToken),
            ])
        #expect(screens.records == [.code(Self.firstModel), .dismissed])
        #expect(screens.unanswered.isEmpty)
        #expect(storage.calls.isEmpty, "the operation leaves storage untouched")
    }

    @Test func askingAgainSendsNoSMSAndShowsTheNotice() throws {
        let api = api()
        let screens = ScriptedScreens(code: [.submitted(Fixtures.code)])
        let request = CodeRequest(attempt: Fixtures.attempt, sendsCode: false, notice: "Wrong code.", attemptsLeft: 2)
        let report = LaunchProbe.launch(Fixtures.factory(api: api, screens: screens).makeCodeOp(), input: request)

        expectKeptContract(report)
        #expect(try report.value() == Fixtures.authToken)
        #expect(api.calls == [.verifyCode(Fixtures.code, phoneToken: Fixtures.phoneToken)])
        let model = CodeViewModel(
            api: modelAPI, phone: Fixtures.phone, codeLength: 6, attemptsLeft: 2, errorMessage: "Wrong code.")
        #expect(screens.records == [.code(model), .dismissed])
    }

    @Test func aRerunAsksAfreshWithoutTheEarlierRunsNotice() throws {
        // Issue 28: a step relaunched from the journal showed "Wrong code." for a fresh ask.
        let api = api()
        let screens = ScriptedScreens(code: [.submitted(Fixtures.code)])
        let request = CodeRequest(attempt: Fixtures.attempt, sendsCode: false, notice: "Wrong code.", attemptsLeft: 2)
        var context = OpContext(request)
        context.scope = ScenarioScope(
            address: StepAddress(path: [StepAddress.Component(index: 2, name: "CodeOp")]), resumesEarlierRun: true)
        let report = LaunchProbe.launch(Fixtures.factory(api: api, screens: screens).makeCodeOp(), context: context)

        expectKeptContract(report)
        #expect(try report.value() == Fixtures.authToken)
        let model = CodeViewModel(
            api: modelAPI, phone: Fixtures.phone, codeLength: 6, attemptsLeft: 2, errorMessage: nil)
        #expect(screens.records == [.code(model), .dismissed])
    }

    @Test func aResendSendsAnotherSMSAndAsksAgain() throws {
        let api = api()
        let screens = ScriptedScreens(code: [.resendRequested, .submitted(Fixtures.code)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, screens: screens).makeCodeOp(), input: CodeRequest(attempt: Fixtures.attempt))

        expectKeptContract(report)
        #expect(try report.value() == Fixtures.authToken)
        #expect(api.calls.map(\.method) == [.sendCode, .sendCode, .verifyCode])
        #expect(screens.records == [.code(Self.firstModel), .dismissed, .code(Self.firstModel), .dismissed])
    }

    /// Rate limiting is left out: on the first send it means a code is already pending (below).
    static let sendErrors: [AuthError] =
        [.unauthorized, .termsOutdated(currentVersion: "3"), .locked(retryAfter: 300)]
        + Fixtures.anyEndpointErrors.filter { if case .rateLimited = $0 { false } else { true } }

    @Test(arguments: sendErrors)
    func sendErrorsFinishTheLaunchBeforeAnyScreen(error: AuthError) {
        let api = api(sent: .failure(error))
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(code: [.submitted(Fixtures.code)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: screens).makeCodeOp(),
            input: CodeRequest(attempt: Fixtures.attempt))

        expectKeptContract(report)
        #expect(report.error as? AuthError == error)
        #expect(api.calls.map(\.method) == [.sendCode])
        #expect(storage.calls.isEmpty)
    }

    static let verifyErrors: [AuthError] =
        [
            .invalidCode(attemptsLeft: 2), .invalidCode(attemptsLeft: 0), .codeExpired, .locked(retryAfter: 300),
            .unauthorized,
        ] + Fixtures.anyEndpointErrors

    @Test(arguments: verifyErrors)
    func verifyErrorsFinishTheLaunchAndDismissTheScreen(error: AuthError) {
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(code: [.submitted(Fixtures.code)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api(verified: .failure(error)), storage: storage, screens: screens).makeCodeOp(),
            input: CodeRequest(attempt: Fixtures.attempt))

        expectKeptContract(report)
        #expect(report.error as? AuthError == error)
        #expect(screens.records == [.code(Self.firstModel), .dismissed])
        #expect(storage.calls.isEmpty)
    }

    @Test func aRelaunchRefusedAsTooSoonAsksForTheCodeAlreadySent() throws {
        let api = api(sent: .failure(.rateLimited(retryAfter: 25)))
        let screens = ScriptedScreens(code: [.submitted(Fixtures.code)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, screens: screens).makeCodeOp(), input: CodeRequest(attempt: Fixtures.attempt))

        expectKeptContract(report)
        #expect(try report.value() == Fixtures.authToken)
        #expect(api.calls.map(\.method) == [.sendCode, .verifyCode])
        let model = CodeViewModel(api: modelAPI, phone: Fixtures.phone, codeLength: 6, resendAfter: 25)
        #expect(screens.records == [.code(model), .dismissed])
    }

    @Test func aFailedResendFinishesTheLaunch() {
        let sends = Counter()
        let api = StubAuthAPI(
            sendCode: { _ in sends.next() == 1 ? .success(Fixtures.delivery) : .failure(.rateLimited(retryAfter: 12)) },
            unimplemented: Fixtures.unexpectedCall)
        let screens = ScriptedScreens(code: [.resendRequested])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, screens: screens).makeCodeOp(), input: CodeRequest(attempt: Fixtures.attempt))

        expectKeptContract(report)
        #expect(report.error as? AuthError == .rateLimited(retryAfter: 12))
        #expect(screens.records == [.code(Self.firstModel), .dismissed])
    }

    @Test func closingTheScreenIsACancellationAndVerifiesNothing() {
        let api = api()
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(code: [.cancelled])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: screens).makeCodeOp(),
            input: CodeRequest(attempt: Fixtures.attempt))

        expectKeptContract(report)
        #expect(report.error as? SignInCancelled == .codeScreenClosed)
        #expect(report.error?.isCancellation == true)
        #expect(api.calls.map(\.method) == [.sendCode])
        #expect(screens.records == [.code(Self.firstModel), .dismissed])
        #expect(storage.calls.isEmpty)
    }

    @Test func cancellationWhileVerifyingFinishesOnceAsCancelled() {
        let token = CancellationToken()
        let api = StubAuthAPI(
            sendCode: { _ in .success(Fixtures.delivery) },
            verifyCode: { _, _ in
                token.cancel()
                return .success(Fixtures.authToken)
            }, unimplemented: Fixtures.unexpectedCall)
        let storage = RecordingLocalStorage()
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: ScriptedScreens(code: [.submitted(Fixtures.code)]))
                .makeCodeOp(),
            context: OpContext(CodeRequest(attempt: Fixtures.attempt), cancellation: token))

        expectKeptContract(report)
        #expect(report.error as? OpError == .cancelled)
        #expect(report.diagnostics.map(\.kind) == [.lateFinishDropped])
        #expect(storage.calls.isEmpty)
    }

    /// It makes the backend act, so it is not pure: its requests carry the launch's key.
    @Test func hasSideEffects() {
        #expect(Purity.of(CodeOp.self) == .sideEffects)
    }
}
