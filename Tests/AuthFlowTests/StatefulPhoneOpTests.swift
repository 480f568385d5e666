import AuthFlow
import AuthFlowTesting
import Operations
import OperationsTesting
import StatefulAuthFlow
import Testing

struct StatefulPhoneOpTests {
    private func api(_ answer: Result<PhoneSession, AuthError> = .success(PhoneOpTests.session)) -> StubAuthAPI {
        StubAuthAPI(submitPhone: { _ in answer }, unimplemented: Fixtures.unexpectedCall)
    }

    @Test(arguments: [StubAuthAPI.Delivery.immediate, .asynchronous])
    func submitsTheNumberAndWritesThePhoneTokenIntoStorage(delivery: StubAuthAPI.Delivery) async throws {
        let api = StubAuthAPI(
            submitPhone: { _ in .success(PhoneOpTests.session) }, delivery: delivery,
            unimplemented: Fixtures.unexpectedCall)
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)], delivery: .init(delivery))
        let factory = Fixtures.factory(api: api, storage: storage, screens: screens)
        let report = await OwnThread.run {
            LaunchProbe.launch(factory.makeStatefulPhoneOp(phoneTokens: storage), input: nil)
        }

        expectKeptContract(report)
        try report.value()
        #expect(api.calls == [.submitPhone(Fixtures.phone)])
        #expect(storage.calls == [.savePhoneToken(Fixtures.phoneToken)])
        #expect(try storage.loadPhoneToken() == Fixtures.phoneToken)
        #expect(screens.records == [.phone(PhoneViewModel(api: modelAPI)), .dismissed])
        #expect(screens.unanswered.isEmpty)
    }

    @Test(arguments: PhoneOpTests.errors)
    func backendErrorsFinishTheLaunchAndWriteNothing(error: AuthError) {
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api(.failure(error)), storage: storage, screens: screens).makeStatefulPhoneOp(
                phoneTokens: storage),
            input: nil)

        expectKeptContract(report)
        #expect(report.error as? AuthError == error)
        #expect(storage.calls.isEmpty)
    }

    @Test func aStorageErrorFinishesTheLaunch() {
        let failure = LocalStorageError.unwritable(path: "/nowhere/auth-token.phone.json", reason: "No space left")
        let storage = RecordingLocalStorage(saveError: failure)
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api(), storage: storage, screens: screens).makeStatefulPhoneOp(phoneTokens: storage),
            input: nil)

        expectKeptContract(report)
        #expect(report.error as? LocalStorageError == failure)
        #expect(storage.calls == [.savePhoneToken(Fixtures.phoneToken)])
    }

    @Test func closingTheScreenIsACancellationAndWritesNothing() {
        let api = api()
        let storage = RecordingLocalStorage()
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: ScriptedScreens(phone: [.cancelled]))
                .makeStatefulPhoneOp(phoneTokens: storage),
            input: nil)

        expectKeptContract(report)
        #expect(report.error as? SignInCancelled == .phoneScreenClosed)
        #expect(report.error?.isCancellation == true)
        #expect(api.calls.isEmpty)
        #expect(storage.calls.isEmpty)
    }

    @Test func cancellationWhileTheRequestIsInFlightFinishesOnceAndWritesNothing() {
        let token = CancellationToken()
        let api = StubAuthAPI(
            submitPhone: { _ in
                token.cancel()
                return .success(PhoneOpTests.session)
            }, unimplemented: Fixtures.unexpectedCall)
        let storage = RecordingLocalStorage()
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: ScriptedScreens(phone: [.submitted(Fixtures.phone)]))
                .makeStatefulPhoneOp(phoneTokens: storage),
            context: OpContext(nil, cancellation: token))

        expectKeptContract(report)
        #expect(report.error as? OpError == .cancelled)
        #expect(storage.calls.isEmpty, "the caller was told the launch was cancelled; nothing may have been written")
    }

    @Test func hasSideEffectsUnlikeThePureVariant() {
        #expect(Purity.of(StatefulPhoneOp.self) == .sideEffects)
        #expect(Purity.of(PhoneOp.self) == .pure)
    }
}
