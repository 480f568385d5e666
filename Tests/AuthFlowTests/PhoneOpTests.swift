import AuthFlow
import AuthFlowTesting
import Operations
import OperationsDiagrams
import OperationsTesting
import Synchronization
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
        let report = await OwnThread.run { LaunchProbe.launch(factory.makePhoneOp(), input: nil) }

        expectKeptContract(report)
        #expect(
            try report.value()
                == SignInAttempt(
                    phone: Fixtures.phone, phoneToken: Fixtures.phoneToken, termsRequired: true, codeLength: 6))
        #expect(api.calls == [.submitPhone(Fixtures.phone)])
        #expect(screens.records == [.phone(PhoneViewModel(api: modelAPI)), .dismissed])
        #expect(screens.unanswered.isEmpty)
        #expect(storage.calls.isEmpty, "a pure operation leaves storage untouched")
    }

    @Test func prefillsTheNumberItWasLaunchedWith() throws {
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)])
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api(), screens: screens).makePhoneOp(), input: Fixtures.phone)
        expectKeptContract(report)
        #expect(screens.records == [.phone(PhoneViewModel(api: modelAPI, input: "+79991234567")), .dismissed])
    }

    static let errors: [AuthError] = [.invalidPhone, .locked(retryAfter: 300)] + Fixtures.anyEndpointErrors

    @Test(arguments: errors)
    func backendErrorsFinishTheLaunchAsTheyAre(error: AuthError) {
        let storage = RecordingLocalStorage()
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)])
        // Not asking again: a script cannot correct a rejected number (the re-ask has its own test).
        let factory = Fixtures.factory(api: api(.failure(error)), storage: storage, screens: screens)
        let report = LaunchProbe.launch(
            PhoneOp(api: factory.api, screens: screens, retry: factory.retry, asksAgain: false), input: nil)

        expectKeptContract(report)
        #expect(report.error as? AuthError == error)
        #expect(report.error?.isCancellation == false)
        #expect(screens.records == [.phone(PhoneViewModel(api: modelAPI)), .dismissed])
        #expect(storage.calls.isEmpty)
    }

    /// A rejected number is the person's to correct: the same screen shows it again with the
    /// server's reason, and the launch goes on with the number entered next.
    @Test(arguments: [StubAuthAPI.Delivery.immediate, .asynchronous])
    func aRejectedNumberIsAskedForAgainOnTheSameScreen(delivery: StubAuthAPI.Delivery) throws {
        let rejected = try PhoneNumber(parsing: "+7 999 000-00-00")
        let submitted = Mutex<[PhoneNumber]>([])
        let api = StubAuthAPI(
            submitPhone: { phone in
                submitted.withLock { $0.append(phone) }
                return phone == rejected ? .failure(.invalidPhone) : .success(Self.session)
            }, delivery: delivery, unimplemented: Fixtures.unexpectedCall)
        let screens = ScriptedScreens(phone: [.submitted(rejected), .submitted(Fixtures.phone)])
        let tracer = InMemoryTracer()
        var context = OpContext<PhoneNumber?>(nil)
        context.trace = .root(tracer, caller: .caller("Caller"))
        let report = LaunchProbe.launch(PhoneOp(api: api, screens: screens, asksAgain: true), context: context)

        expectKeptContract(report)
        #expect(try report.value().phone == Fixtures.phone)
        #expect(submitted.withLock { $0 } == [rejected, Fixtures.phone])
        #expect(
            screens.records == [
                .phone(PhoneViewModel(api: modelAPI)),
                .phone(PhoneViewModel(api: modelAPI).failed(with: .invalidPhone, phone: rejected)), .dismissed,
            ])
        // The second show sits in a frame that says why.
        #expect(
            tracer.trace.events.contains {
                if case .frameOpen(.loop, "number rejected, asked again", _) = $0.kind { true } else { false }
            })
        #expect(try TextDiagramRenderer(maxWidth: 100).render(tracer.trace).contains("number rejected"))
    }

    /// A screen that keeps sending the same rejected number is asked again a bounded number of
    /// times, then the rejection ends the launch; no request carries a key, even in a context
    /// that has one (a pure step inside a keyed nested scenario).
    @Test func aNumberRejectedAgainAndAgainEndsTheLaunchAndNoRequestIsKeyed() throws {
        let api = StubAuthAPI(submitPhone: { _ in .failure(.invalidPhone) }, unimplemented: Fixtures.unexpectedCall)
        let screens = ScriptedScreens(phone: Array(repeating: .submitted(Fixtures.phone), count: 20))
        var context = OpContext<PhoneNumber?>(nil)
        context.idempotencyKey = .make()
        let report = LaunchProbe.launch(PhoneOp(api: api, screens: screens, asksAgain: true), context: context)

        expectKeptContract(report)
        #expect(report.error as? AuthError == .invalidPhone)
        #expect(api.calls.count == 6, "the first submission and five more")
        #expect(api.idempotencyKeys(for: .submitPhone).allSatisfy { $0 == nil })
    }

    /// Closing the screen while it asks again is a cancellation, as at the first show.
    @Test func closingTheScreenWhenAskedAgainIsACancellation() throws {
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone), .cancelled])
        let api = StubAuthAPI(submitPhone: { _ in .failure(.invalidPhone) }, unimplemented: Fixtures.unexpectedCall)
        let report = LaunchProbe.launch(PhoneOp(api: api, screens: screens, asksAgain: true), input: nil)

        expectKeptContract(report)
        #expect(report.error as? SignInCancelled == .phoneScreenClosed)
        #expect(screens.records.count == 3)
        #expect(screens.unanswered.isEmpty)
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
        #expect(screens.records == [.phone(PhoneViewModel(api: modelAPI)), .dismissed])
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

/// PhoneOp retries its own request after a transient failure, on the launch's scheduler, after
/// the number was entered: the person is asked once however often the request is sent.
struct PhoneOpRetryTests {
    @Test func aTransientFailureResendsTheRequestAfterTheBackoffWithoutAskingAgain() async throws {
        let sent = LockedState(0)
        let api = StubAuthAPI(
            submitPhone: { _ in
                sent.withLock { $0 += 1 }
                return sent.withLock { $0 } <= 2 ? .failure(.serverError(status: 503)) : .success(PhoneOpTests.session)
            }, unimplemented: Fixtures.unexpectedCall)
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)])
        let scheduler = TestScheduler()
        let backoff = Backoff(initial: .seconds(1), multiplier: 2, cap: .seconds(10), jitter: 0)
        let operation = PhoneOp(api: api, screens: screens, retry: .transient(maxAttempts: 3, backoff: backoff))
        let result = Mailbox<Result<SignInAttempt, any Error>>()

        operation.launch(OpContext(nil, environment: OpEnvironment(scheduler: scheduler))) { result.put($0) }

        // The stub answers at once, so each retry is waiting on the test scheduler when we look.
        #expect(sent.withLock { $0 } == 1)
        #expect(result.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(sent.withLock { $0 } == 2)
        #expect(result.isEmpty)
        scheduler.advance(by: .seconds(2))
        let attempt = try await OwnThread.run { try result.take() }.get()

        #expect(attempt.phoneToken == Fixtures.phoneToken)
        #expect(api.calls == Array(repeating: .submitPhone(Fixtures.phone), count: 3))
        #expect(screens.records == [.phone(PhoneViewModel(api: modelAPI)), .dismissed], "the screen was asked once")
        #expect(scheduler.requestedDelays == [.seconds(1), .seconds(2)])
    }

    @Test func aPermanentFailureIsNotRetried() {
        let api = StubAuthAPI(submitPhone: { _ in .failure(.invalidPhone) }, unimplemented: Fixtures.unexpectedCall)
        let screens = ScriptedScreens(phone: [.submitted(Fixtures.phone)])
        let report = LaunchProbe.launch(
            PhoneOp(api: api, screens: screens, retry: .transient(maxAttempts: 3, backoff: .immediate)), input: nil)

        expectKeptContract(report)
        #expect(report.error as? AuthError == .invalidPhone)
        #expect(api.calls.count == 1)
    }
}
