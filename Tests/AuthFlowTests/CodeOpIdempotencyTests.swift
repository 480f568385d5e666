import AuthFlow
import AuthFlowTesting
import AuthSimulator
import Foundation
import Operations
import OperationsTesting
import Testing

/// ``CodeOp`` and ``TermsOfUseOp`` have side effects and give each request that makes the backend
/// act a key of its own, derived from their launch's; relaunched with the same key after a lost answer or a
/// kill, they get the first answer and go on, sending one SMS in all.
struct CodeOpIdempotencyTests {
    private let key = IdempotencyKey.make()

    private func context(_ request: CodeRequest, cancellation: CancellationToken? = nil) -> OpContext<CodeRequest> {
        var context = OpContext(request, cancellation: cancellation)
        context.idempotencyKey = key
        return context
    }

    // MARK: - Keys reach the API

    @Test func sendAndVerifyCarryKeysOfTheirOwnAndAResendThePersonAskedForNone() async {
        let api = StubAuthAPI(
            sendCode: { _ in .success(Fixtures.delivery) }, verifyCode: { _, _ in .success(Fixtures.authToken) },
            unimplemented: Fixtures.unexpectedCall)
        let screens = ScriptedScreens(code: [.resendRequested, .submitted(Fixtures.code)])
        let factory = Fixtures.factory(api: api, screens: screens)
        let context = context(CodeRequest(attempt: Fixtures.attempt))
        let report = await OwnThread.run { LaunchProbe.launch(factory.makeCodeOp(), context: context) }

        expectKeptContract(report)
        #expect(api.idempotencyKeys(for: .sendCode) == [key.forRequest("send"), nil], "a resend must send a new SMS")
        let verify = key.forRequest(CodeEntry.verifyRequest(Fixtures.code))
        #expect(api.idempotencyKeys(for: .verifyCode) == [verify])
        #expect(key.forRequest("send") != verify, "two requests never share a key")
        #expect(
            key.forRequest(CodeEntry.verifyRequest(Fixtures.wrongCode)) != verify,
            "a verification of another code is another request")
    }

    @Test func termsAcceptanceCarriesTheKeyAndTheFetchDoesNot() async {
        let api = StubAuthAPI(
            fetchTerms: { _ in .success(Fixtures.terms) },
            acceptTerms: { version, _ in
                .success(TermsAcceptance(acceptedVersion: version, phoneToken: Fixtures.acceptedPhoneToken))
            },
            unimplemented: Fixtures.unexpectedCall)
        let screens = ScriptedScreens(terms: [.accepted])
        let factory = Fixtures.factory(api: api, screens: screens)
        var context = OpContext(Fixtures.phoneToken)
        context.idempotencyKey = key
        let report = await OwnThread.run { [context] in LaunchProbe.launch(factory.makeTermsOfUseOp(), context: context)
        }

        expectKeptContract(report)
        #expect(api.idempotencyKeys(for: .fetchTerms) == [nil])
        #expect(api.idempotencyKeys(for: .acceptTerms) == [key.forRequest("accept")])
    }

    // MARK: - Against the simulator

    /// The phone token of an attempt with accepted terms, from the simulator itself.
    private func attempt(_ api: HTTPAuthAPI) async throws -> SignInAttempt {
        let session = try await api.submitPhone(Fixtures.phone).get()
        let accepted = try await api.acceptTerms(version: "1", phoneToken: session.phoneToken).get()
        return SignInAttempt(
            phone: Fixtures.phone, phoneToken: accepted.phoneToken, termsRequired: false, codeLength: 6)
    }

    @Test func lostAnswersThenARelaunchWithTheSameKeySendOneSMS() async throws {
        let backend = Fixtures.backend(faults: [
            .codeSend: [.lostResponse(times: 1)], .codeVerify: [.lostResponse(times: 1)],
        ])
        let api = Fixtures.api(backend)
        let request = CodeRequest(attempt: try await attempt(api))
        let factory = AuthFlowFactory(
            api: api, storage: InMemoryLocalStorage(),
            screens: ScriptedScreens(code: [.submitted(Fixtures.code), .submitted(Fixtures.code)]), retry: .never)

        // 1: the SMS goes out, its answer is lost.
        let lostSend = await OwnThread.run { [context = context(request)] in
            LaunchProbe.launch(factory.makeCodeOp(), context: context)
        }
        #expect(lostSend.error as? AuthError == .connectionLost)
        #expect(lostSend.error?.outcomeIsUncertain == true, "the engine keeps the key for the relaunch")
        // 2: same key: the first answer, the code is asked for and verified; that answer is lost.
        let lostVerify = await OwnThread.run { [context = context(request)] in
            LaunchProbe.launch(factory.makeCodeOp(), context: context)
        }
        #expect(lostVerify.error as? AuthError == .connectionLost)
        // 3: same key: the first answers of both, and the access token.
        let done = await OwnThread.run { [context = context(request)] in
            LaunchProbe.launch(factory.makeCodeOp(), context: context)
        }

        #expect(throws: Never.self) { try done.value() }
        #expect(backend.sentSMS.count == 1, "three launches, one SMS")
        #expect(backend.requestCount(for: .codeSend) == 3)
    }

    /// A rerun of a code step that failed on a wrong code relaunches it under the same key with
    /// the code given again: against a backend that remembers the first launch's answers, the
    /// new code is a new verification (not a key reused for another body), and the SMS is not
    /// sent again.
    @Test func aRelaunchWithTheSameKeyAndAnotherCodeVerifiesThatCode() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let request = CodeRequest(attempt: try await attempt(api))
        let wrong = AuthFlowFactory(
            api: api, storage: InMemoryLocalStorage(), screens: ScriptedScreens(code: [.submitted(Fixtures.wrongCode)]),
            retry: .never)
        let failed = await OwnThread.run { [context = context(request)] in
            LaunchProbe.launch(wrong.makeCodeOp(), context: context)
        }
        #expect(failed.error as? AuthError == .invalidCode(attemptsLeft: 2))

        let right = AuthFlowFactory(
            api: api, storage: InMemoryLocalStorage(), screens: ScriptedScreens(code: [.submitted(Fixtures.code)]),
            retry: .never)
        let rerun = await OwnThread.run { [context = context(request)] in
            LaunchProbe.launch(right.makeCodeOp(), context: context)
        }

        expectKeptContract(rerun)
        #expect(throws: Never.self) { try rerun.value() }
        #expect(backend.sentSMS.count == 1, "the send was answered from the first launch")
        #expect(backend.actionCount(for: .codeVerify) == 2, "each code verified once")
    }

    @Test func aRerunAfterAKillDuringVerifyAsksForTheCodeInsteadOfExpiring() async throws {
        let clock = TestClock()
        let backend = Fixtures.backend(clock: clock, faults: [.codeVerify: [.hang(times: 1)]])
        let api = Fixtures.api(backend, clock: clock)
        let request = CodeRequest(attempt: try await attempt(api))
        let killed = CancellationToken()
        let killingAPI = HTTPAuthAPI(
            transport: KillSwitchTransport(backend, path: "/v1/auth/code/verify", kill: killed), timeout: .seconds(5),
            now: clock.function)
        let first = AuthFlowFactory(
            api: killingAPI, storage: InMemoryLocalStorage(),
            screens: ScriptedScreens(code: [.submitted(Fixtures.code)]),
            retry: .never)
        let killedRun = await OwnThread.run { [context = context(request, cancellation: killed)] in
            LaunchProbe.launch(first.makeCodeOp(), context: context)
        }
        // The launch's cancellation and the request's answer race; either way it ended cancelled,
        // with an outcome in doubt, so a rerun reuses the key.
        #expect(killedRun.error as? OpError == .cancelled || killedRun.error as? AuthError == .cancelled)
        #expect(killedRun.error?.outcomeIsUncertain == true)

        clock.advance(by: 5)  // well inside the 30 s resend interval: a new key would get a 429
        let rerun = AuthFlowFactory(
            api: api, storage: InMemoryLocalStorage(), screens: ScriptedScreens(code: [.submitted(Fixtures.code)]),
            retry: .never)
        let report = await OwnThread.run { [context = context(request)] in
            LaunchProbe.launch(rerun.makeCodeOp(), context: context)
        }

        expectKeptContract(report)
        #expect(throws: Never.self) { try report.value() }
        #expect(backend.sentSMS.count == 1)
    }
}

/// Forwards to a transport and fires `kill` once a request for `path` has gone out: the process
/// killed while that request was in flight.
private struct KillSwitchTransport: HTTPTransport {
    let base: any HTTPTransport
    let path: String
    let kill: CancellationToken

    init(_ base: any HTTPTransport, path: String, kill: CancellationToken) {
        self.base = base
        self.path = path
        self.kill = kill
    }

    func send(
        _ request: HTTPRequest, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        base.send(request, cancellation: cancellation, completion: completion)
        if request.path == path { kill.cancel() }
    }
}
