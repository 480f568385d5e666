import AuthFlow
import AuthSimulator
import Foundation
import Operations
import Synchronization
import Testing

struct HTTPAuthAPITests {
    @Test func happyPathThroughEveryEndpoint() async throws {
        let clock = TestClock()
        let backend = Fixtures.backend(clock: clock)
        let api = Fixtures.api(backend, clock: clock)

        let session = try await api.submitPhone(Fixtures.phone).get()
        #expect(session.termsRequired)
        #expect(session.codeLength == 6)

        let terms = try await api.fetchTerms(phoneToken: session.phoneToken).get()
        #expect(terms.version == "1")
        #expect(!terms.text.isEmpty)

        let acceptance = try await api.acceptTerms(version: "1", phoneToken: session.phoneToken).get()
        #expect(acceptance.acceptedVersion == "1")
        #expect(acceptance.authToken == nil)

        let delivery = try await api.sendCode(phoneToken: acceptance.phoneToken).get()
        #expect(delivery == CodeDelivery(resendAfter: 30, codeLength: 6))
        let sms = try #require(backend.lastSMS)
        #expect(sms.phone == Fixtures.phone)
        #expect(sms.code.revealed == "123456")

        let token = try await api.verifyCode("123456", phoneToken: acceptance.phoneToken).get()
        #expect(token.expiresAt == clock.now.addingTimeInterval(30 * 24 * 3600))

        let status = try await api.fetchSession(authToken: token).get()
        #expect(status.phone == Fixtures.phone)
        #expect(status.termsVersion == "1")
        #expect(status.acceptedTermsVersion == "1")
        #expect(!status.termsAcceptanceRequired)

        #expect(
            backend.requestCounts == [.phone: 1, .terms: 1, .termsAccept: 1, .codeSend: 1, .codeVerify: 1, .session: 1])
    }

    @Test func termsNotRequiredGoesStraightToTheCode() async throws {
        let backend = Fixtures.backend(termsRequired: false)
        let api = Fixtures.api(backend)
        let session = try await api.submitPhone(Fixtures.phone).get()
        #expect(!session.termsRequired)
        _ = try await api.sendCode(phoneToken: session.phoneToken).get()
        _ = try await api.verifyCode("123456", phoneToken: session.phoneToken).get()
        #expect(backend.requestCount(for: .terms) == 0)
    }

    @Test func wrongCodesCountDownThenLock() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let token = try await api.readyForCode()
        #expect(try await api.verifyCode("000000", phoneToken: token) == .failure(.invalidCode(attemptsLeft: 2)))
        #expect(try await api.verifyCode("000000", phoneToken: token) == .failure(.invalidCode(attemptsLeft: 1)))
        #expect(try await api.verifyCode("000000", phoneToken: token) == .failure(.locked(retryAfter: 300)))
        #expect(try await api.verifyCode("123456", phoneToken: token) == .failure(.locked(retryAfter: 300)))
        #expect(try await api.submitPhone(Fixtures.phone) == .failure(.locked(retryAfter: 300)))
    }

    @Test func wrongThenRightCode() async throws {
        let api = Fixtures.api(Fixtures.backend())
        let token = try await api.readyForCode()
        #expect(try await api.verifyCode("000000", phoneToken: token) == .failure(.invalidCode(attemptsLeft: 2)))
        _ = try await api.verifyCode("123456", phoneToken: token).get()
    }

    @Test func codeExpiresAndIsSingleUse() async throws {
        let clock = TestClock()
        let api = Fixtures.api(Fixtures.backend(clock: clock), clock: clock)
        let token = try await api.readyForCode()
        clock.advance(by: 301)
        #expect(try await api.verifyCode("123456", phoneToken: token) == .failure(.codeExpired))

        let second = try await api.readyForCode()
        _ = try await api.verifyCode("123456", phoneToken: second).get()
        #expect(try await api.verifyCode("123456", phoneToken: second) == .failure(.codeExpired))
    }

    @Test func resendTooSoonIsRateLimited() async throws {
        let clock = TestClock()
        let api = Fixtures.api(Fixtures.backend(clock: clock), clock: clock)
        let token = try await api.readyForCode()
        #expect(try await api.sendCode(phoneToken: token) == .failure(.rateLimited(retryAfter: 30)))
        clock.advance(by: 30)
        _ = try await api.sendCode(phoneToken: token).get()
    }

    @Test func termsMustBeAcceptedAndCurrent() async throws {
        let api = Fixtures.api(Fixtures.backend(termsVersion: "7"))
        let session = try await api.submitPhone(Fixtures.phone).get()
        #expect(try await api.sendCode(phoneToken: session.phoneToken) == .failure(.termsOutdated(currentVersion: "7")))
        #expect(
            try await api.acceptTerms(version: "6", phoneToken: session.phoneToken)
                == .failure(.termsOutdated(currentVersion: "7")))
    }

    @Test func changedTermsAreAcceptedAgainForASavedToken() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let token = try await api.verifyCode("123456", phoneToken: try await api.readyForCode()).get()

        backend.publishTerms(version: "2", text: "New terms.")
        let status = try await api.fetchSession(authToken: token).get()
        #expect(status.termsAcceptanceRequired)
        #expect(status.acceptedTermsVersion == "1")
        let phoneToken = try #require(status.phoneToken)
        #expect(try await api.fetchTerms(phoneToken: phoneToken).get().version == "2")
        let receipt = try await api.acceptTerms(version: "2", phoneToken: phoneToken).get()
        let refreshed = try #require(receipt.authToken)
        #expect(!(try await api.fetchSession(authToken: refreshed).get().termsAcceptanceRequired))
    }

    @Test func faultyTokensAreUnauthorized() async throws {
        let clock = TestClock()
        let api = Fixtures.api(Fixtures.backend(clock: clock), clock: clock)
        let session = try await api.submitPhone(Fixtures.phone).get()
        let tampered = PhoneToken(String(session.phoneToken.revealed.dropLast()) + "A")
        #expect(try await api.fetchTerms(phoneToken: tampered) == .failure(.unauthorized))
        #expect(try await api.fetchTerms(phoneToken: PhoneToken("not a token")) == .failure(.unauthorized))
        let asAccess = AuthToken(session.phoneToken.revealed, expiresAt: clock.now)
        #expect(try await api.fetchSession(authToken: asAccess) == .failure(.unauthorized))
        clock.advance(by: 901)
        #expect(try await api.fetchTerms(phoneToken: session.phoneToken) == .failure(.unauthorized))
    }

    @Test func malformedJSONIsAMalformedResponse() async throws {
        let backend = Fixtures.backend(faults: [.phone: [.malformedBody(times: 1)]])
        let api = Fixtures.api(backend)
        #expect(
            try await api.submitPhone(Fixtures.phone)
                == .failure(.malformedResponse(reason: "the body is not valid JSON")))
        _ = try await api.submitPhone(Fixtures.phone).get()
    }

    @Test(arguments: [
        (#"{"termsRequired":true,"codeLength":6}"#, "missing field “phoneToken”"),
        (#"{"phoneToken":"t","termsRequired":"yes","codeLength":6}"#, "field “termsRequired” has the wrong type"),
        (#"{"phoneToken":"t","termsRequired":true,"codeLength":null}"#, "field “codeLength” is null"),
        (#"{"phoneToken":"t","termsRequired":true,"codeLength":0}"#, "“codeLength” out of range"),
        (#"[1,2"#, "the body is not valid JSON"),
        ("", "the body is not valid JSON"),
    ])
    func bodiesThatBreakTheContract(json: String, reason: String) async throws {
        let api = Fixtures.api(CannedTransport(status: 200, json: json))
        #expect(try await api.submitPhone(Fixtures.phone) == .failure(.malformedResponse(reason: reason)))
    }

    // The error envelope as Docs/HTTP-API.md shows it, status by status.
    @Test(
        arguments: [
            (400, [:], #"{"error":{"code":"invalid_phone","message":"…"}}"#, AuthError.invalidPhone),
            (
                400, [:], #"{"error":{"code":"invalid_code","message":"…","attemptsLeft":2}}"#,
                .invalidCode(attemptsLeft: 2)
            ),
            (
                400, [:], #"{"error":{"code":"invalid_request","message":"…"}}"#,
                .unexpectedStatus(400, code: "invalid_request")
            ),
            (401, [:], #"{"error":{"code":"unauthorized","message":"…"}}"#, .unauthorized),
            (401, [:], "", .unauthorized),
            (
                409, [:], #"{"error":{"code":"terms_outdated","message":"…","currentVersion":"3"}}"#,
                .termsOutdated(currentVersion: "3")
            ),
            (
                409, [:], #"{"error":{"code":"terms_not_accepted","message":"…","currentVersion":"3"}}"#,
                .termsOutdated(currentVersion: "3")
            ),
            (410, [:], #"{"error":{"code":"code_expired","message":"…"}}"#, .codeExpired),
            (
                423, ["Retry-After": "120"], #"{"error":{"code":"locked","message":"…","retryAfter":120}}"#,
                .locked(retryAfter: 120)
            ),
            (
                429, ["Retry-After": "5"], #"{"error":{"code":"rate_limited","message":"…"}}"#,
                .rateLimited(retryAfter: 5)
            ),
            (429, [:], #"{"error":{"code":"rate_limited","message":"…","retryAfter":7}}"#, .rateLimited(retryAfter: 7)),
            (429, [:], "Slow down", .rateLimited(retryAfter: nil)),
            (500, [:], "<html>oops</html>", .serverError(status: 500)),
            (
                503, ["Retry-After": "1"], #"{"error":{"code":"unavailable","message":"…"}}"#,
                .serverError(status: 503, retryAfter: 1)
            ),
            (503, [:], #"{"error":{"code":"unavailable","message":"…"}}"#, .serverError(status: 503)),
            (418, [:], #"{"error":{"code":"teapot","message":"…"}}"#, .unexpectedStatus(418, code: "teapot")),
            (302, [:], "", .unexpectedStatus(302, code: nil)),
        ] as [(Int, HTTPHeaders, String, AuthError)])
    func errorStatusesMapToDomainErrors(status: Int, headers: HTTPHeaders, json: String, expected: AuthError)
        async throws
    {
        let api = Fixtures.api(CannedTransport(status: status, headers: headers, json: json))
        #expect(try await api.fetchTerms(phoneToken: PhoneToken("t")) == .failure(expected))
    }

    @Test func retryAfterAsAnHTTPDate() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 784_111_717))  // Sun, 06 Nov 1994 08:48:37 GMT
        let transport = CannedTransport(
            status: 429, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"], json: "")
        let api = Fixtures.api(transport, clock: clock)
        #expect(try await api.fetchTerms(phoneToken: PhoneToken("t")) == .failure(.rateLimited(retryAfter: 60)))
    }

    @Test func transportFailuresMapToUnreachableAndTimeout() async throws {
        let down = Fixtures.api(CannedTransport(failure: .unreachable(reason: "connection refused")))
        #expect(
            try await down.fetchTerms(phoneToken: PhoneToken("t"))
                == .failure(.unreachable(reason: "connection refused")))
        let slow = Fixtures.api(CannedTransport(failure: .timeout))
        #expect(try await slow.fetchTerms(phoneToken: PhoneToken("t")) == .failure(.timeout))
    }

    @Test func unexpectedStatusFromTheSimulator() async throws {
        let api = Fixtures.api(Fixtures.backend(faults: [.phone: [.status(418, times: 1)]]))
        #expect(try await api.submitPhone(Fixtures.phone) == .failure(.unexpectedStatus(418, code: "injected_fault")))
    }

    @Test func hangEndsInTheClientTimeout() async throws {
        let backend = Fixtures.backend(faults: [.codeSend: [.hang(times: 1)]])
        let api = Fixtures.api(backend)
        let session = try await api.submitPhone(Fixtures.phone).get()
        let token = try await api.acceptTerms(version: "1", phoneToken: session.phoneToken).get().phoneToken
        let impatient = Fixtures.api(backend, timeout: .milliseconds(100))
        #expect(try await impatient.sendCode(phoneToken: token) == .failure(.timeout))
        #expect(backend.requestCount(for: .codeSend) == 1)
        _ = try await api.sendCode(phoneToken: token).get()
    }

    @Test func transientFailuresThenSuccess() async throws {
        let backend = Fixtures.backend(faults: [.phone: [.unavailable(times: 2)]])
        let api = Fixtures.api(backend)
        for _ in 0..<2 {
            let result = try await api.submitPhone(Fixtures.phone)
            #expect(result == .failure(.serverError(status: 503, retryAfter: 1)))
            #expect(result.failure?.isTransient == true)
        }
        _ = try await api.submitPhone(Fixtures.phone).get()
        #expect(backend.requestCount(for: .phone) == 3)
        #expect(backend.requestCount(for: .terms) == 0)
    }

    @Test func faultsInjectedAtRuntimeRunInOrder() async throws {
        let backend = Fixtures.backend()
        backend.inject(.status(500, times: 1), into: .phone)
        backend.inject(.malformedBody(times: 1), into: .phone)
        let api = Fixtures.api(backend)
        #expect(try await api.submitPhone(Fixtures.phone) == .failure(.serverError(status: 500)))
        #expect(
            try await api.submitPhone(Fixtures.phone).failure
                == .malformedResponse(reason: "the body is not valid JSON"))
        _ = try await api.submitPhone(Fixtures.phone).get()
        backend.resetRequestCounts()
        #expect(backend.requestCounts.isEmpty)
    }

    @Test func latencyNeverBlocksTheCaller() async throws {
        var configuration = SimulatedBackend.Configuration(latency: .milliseconds(300))
        configuration.instanceID = 1
        let backend = SimulatedBackend(configuration: configuration)
        let delivered = Flag()
        let result: Result<HTTPResponse, TransportError> = try await awaitCompletion { done in
            backend.send(HTTPRequest(method: .get, path: "/v1/auth/terms")) { result in
                delivered.raise()
                done(result)
            }
            // send has returned; the answer is still 300 ms away on a Dispatch timer.
            #expect(!delivered.isRaised)
        }
        #expect(try result.get().status == 401)
    }

    @Test func smsObserverSeesEveryCode() async throws {
        let seen = LockedState<[SimulatedSMS]>([])
        var configuration = SimulatedBackend.Configuration()
        configuration.onSMS = { sms in seen.withLock { $0.append(sms) } }
        let backend = SimulatedBackend(configuration: configuration)
        _ = try await HTTPAuthAPI(transport: backend).readyForCode()
        #expect(seen.withLock { $0 } == backend.sentSMS)
        #expect(backend.sentSMS.count == 1)
        #expect("\(backend.sentSMS[0])" == "SMS to +79991234567: ••••••")
    }

    @Test func unknownRoutes() async throws {
        let backend = Fixtures.backend()
        let missing: Result<HTTPResponse, TransportError> = try await awaitCompletion { done in
            backend.send(HTTPRequest(method: .get, path: "/v1/nothing"), completion: done)
        }
        #expect(try missing.get().status == 404)
        let wrongMethod: Result<HTTPResponse, TransportError> = try await awaitCompletion { done in
            backend.send(HTTPRequest(method: .get, path: "/v1/auth/phone"), completion: done)
        }
        #expect(try wrongMethod.get().status == 405)
        #expect(backend.requestCounts.isEmpty)
    }

    @Test func requestsPrintWithoutSecrets() throws {
        let code = try SMSCode("834271", length: 6)
        let token = PhoneToken("sim1.secretsecretsecret.abcd")
        var request = HTTPRequest(method: .post, path: "/v1/auth/code/verify")
        request.headers["Authorization"] = "Bearer \(token.revealed)"
        request.body = Data(#"{"code":"\#(code.revealed)"}"#.utf8)
        let printed = "\(request)"
        #expect(printed == "POST /v1/auth/code/verify [authorization: Bearer sim…abcd] (17 bytes)")
    }
}

/// A thread-safe flag a completion raises.
final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .sequentiallyConsistent) }
    var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
