import AuthFlow
import AuthFlowURLSession
import Foundation
import HTTPTestSupport
import Operations
import OperationsTesting
import Testing

/// `HTTPAuthAPI`'s hooks replaced one at a time, the way an app would: requests with a header of
/// its own, a check of its own on responses, an error code the contract does not know. The
/// endpoints and the operations stay as they are.
struct HTTPAuthAPIHooksTests {
    /// The contract's requests plus the app's version.
    private static var versionedRequests: HTTPAuthAPI.Hooks {
        var hooks = HTTPAuthAPI.Hooks()
        let standard = hooks.makeRequest
        hooks.makeRequest = { call in
            var request = standard(call)
            request.headers["X-App-Version"] = "2.1"
            return request
        }
        return hooks
    }

    /// The contract's checks plus a signature the app's backend adds to every answer.
    private static var signedResponses: HTTPAuthAPI.Hooks {
        var hooks = HTTPAuthAPI.Hooks()
        let standard = hooks.validate
        hooks.validate = { response, request throws(AuthError) in
            let verdict = try standard(response, request)
            guard response.headers["X-Signature"] != nil else {
                throw .malformedResponse(reason: "the answer is not signed")
            }
            return verdict
        }
        return hooks
    }

    /// A legacy backend that labels its JSON `text/plain`: the status alone decides.
    private static var lenientResponses: HTTPAuthAPI.Hooks {
        var hooks = HTTPAuthAPI.Hooks()
        hooks.validate = { response, _ in (200...299).contains(response.status) ? .success : .errorResponse }
        return hooks
    }

    /// The contract's mapping plus a code of the app's backend.
    private static var blockedNumbers: HTTPAuthAPI.Hooks {
        var hooks = HTTPAuthAPI.Hooks()
        let standard = hooks.errorAnswer
        hooks.errorAnswer = { response, request, now in
            HTTPAuthAPI.Hooks.errorCode(in: response) == "phone_blocked"
                ? .invalidPhone : standard(response, request, now)
        }
        return hooks
    }

    private func started(_ start: () throws -> RecordingServer) throws -> RecordingServer {
        do {
            return try start()
        } catch {
            try Test.cancel("no HTTP server on 127.0.0.1: \(error)")
        }
    }

    // MARK: - Requests

    @Test func aRequestHooksHeaderArrivesAtTheServer() async throws {
        let server = try started { try RecordingServer(serving: Fixtures.backend()) }
        defer { server.stop() }
        let api = HTTPAuthAPI(
            transport: URLSessionTransport(baseURL: server.baseURL), timeout: TestTimeout.standard,
            hooks: Self.versionedRequests)

        let phoneToken = try await api.readyForCode()
        _ = try await api.verifyCode("123456", phoneToken: phoneToken).get()

        let requests = server.requests
        #expect(requests.map(\.path).last == "/v1/auth/code/verify")
        #expect(requests.count == 5)
        #expect(requests.allSatisfy { $0.headers["X-App-Version"] == "2.1" }, "\(requests)")
        #expect(requests.allSatisfy { $0.headers["Accept"] == "application/json" }, "the contract's headers stay")
        #expect(requests.last?.headers["Authorization"] == "Bearer \(phoneToken.revealed)")
    }

    @Test func additionalHeadersNeverReplaceTheContractsOwn() throws {
        let key = IdempotencyKey.make()
        let hooks = HTTPAuthAPI.Hooks(additionalHeaders: ["X-App-Version": "2.1", "Authorization": "Basic forged"])
        let call = AuthRequest(
            method: .post, path: "/v1/auth/code/send", body: Data("{}".utf8), bearerToken: "sim1.token",
            idempotencyKey: key, timeout: .seconds(7))

        let request = hooks.makeRequest(call)

        #expect(
            request
                == HTTPRequest(
                    method: .post, path: "/v1/auth/code/send",
                    headers: [
                        "Accept": "application/json", "Content-Type": "application/json",
                        "Authorization": "Bearer sim1.token", "Idempotency-Key": key.rawValue,
                        "X-App-Version": "2.1",
                    ],
                    body: Data("{}".utf8), timeout: .seconds(7)))
    }

    @Test func aGetCarriesNeitherAKeyNorAContentType() {
        let call = AuthRequest(
            method: .get, path: "/v1/auth/terms", bearerToken: "sim1.token", idempotencyKey: IdempotencyKey.make())

        let request = HTTPAuthAPI.Hooks().makeRequest(call)

        #expect(request.headers == ["Accept": "application/json", "Authorization": "Bearer sim1.token"])
        #expect(request.body.isEmpty)
        #expect("\(call)" == "GET /v1/auth/terms (bearer, key)", "no token or key in clear")
    }

    // MARK: - Responses

    @Test func aValidateHookOfTheAppsOwnRefusesWhatTheContractAllows() async throws {
        let backend = Fixtures.backend()
        #expect(try await Fixtures.api(backend).submitPhone(Fixtures.phone).get().codeLength == 6)
        let strict = HTTPAuthAPI(transport: backend, timeout: .seconds(5), hooks: Self.signedResponses)

        let result = try await strict.submitPhone(Fixtures.phone)

        #expect(result == .failure(.malformedResponse(reason: "the answer is not signed")))
        #expect(
            result.failure?.description
                == "The server sent an answer this app does not understand (the answer is not signed).")
    }

    @Test func aValidateHookOfTheAppsOwnAcceptsWhatTheContractRefuses() async throws {
        let transport = CannedTransport(
            status: 200, headers: ["Content-Type": "text/plain"],
            json: #"{"phoneToken":"sim1.token","termsRequired":false,"codeLength":4}"#)
        let refused = try await Fixtures.api(transport).submitPhone(Fixtures.phone)
        #expect(refused == .failure(.malformedResponse(reason: "a text/plain body where JSON was expected")))

        let lenient = HTTPAuthAPI(transport: transport, timeout: .seconds(5), hooks: Self.lenientResponses)
        let session = try await lenient.submitPhone(Fixtures.phone).get()

        #expect(session.codeLength == 4)
    }

    // MARK: - Errors

    @Test func anErrorHookMapsACodeTheContractDoesNotKnow() async throws {
        let blocked = CannedTransport(
            status: 403, headers: ["Content-Type": "application/json"],
            json: #"{"error":{"code":"phone_blocked","message":"This number is blocked."}}"#)
        #expect(
            try await Fixtures.api(blocked).submitPhone(Fixtures.phone)
                == .failure(.unexpectedStatus(403, code: "phone_blocked")))

        let api = HTTPAuthAPI(transport: blocked, timeout: .seconds(5), hooks: Self.blockedNumbers)
        let result = try await api.submitPhone(Fixtures.phone)

        #expect(result == .failure(.invalidPhone))
        #expect(result.failure?.description == "This phone number is not accepted. Check it and try again.")
    }

    @Test func anErrorHookOfTheAppsOwnKeepsTheContractsOtherMeanings() async throws {
        let limited = CannedTransport(
            status: 429, headers: ["Retry-After": "30"], json: #"{"error":{"code":"rate_limited"}}"#)
        let api = HTTPAuthAPI(transport: limited, timeout: .seconds(5), hooks: Self.blockedNumbers)
        #expect(try await api.submitPhone(Fixtures.phone) == .failure(.rateLimited(retryAfter: 30)))

        // Transport failures keep the contract's mapping.
        let lost = HTTPAuthAPI(
            transport: CannedTransport(failure: .connectionLost), timeout: .seconds(5), hooks: Self.blockedNumbers)
        #expect(try await lost.submitPhone(Fixtures.phone) == .failure(.connectionLost))
    }

    @Test(arguments: [
        (TransportError.timeout, AuthError.timeout),
        (.cancelled, .cancelled),
        (.connectionLost, .connectionLost),
        (.unreachable(reason: "connection refused"), .unreachable(reason: "connection refused")),
        (
            .invalidResponse(reason: "the server redirected too many times"),
            .malformedResponse(reason: "the server redirected too many times")
        ),
    ])
    func transportFailuresInTheDomainsWords(failure: TransportError, expected: AuthError) {
        let request = HTTPRequest(method: .post, path: "/v1/auth/phone")
        #expect(HTTPAuthAPI.Hooks().transportFailure(failure, request) == expected)
    }

    @Test func tooManyRedirectsReadsInPlainWords() {
        let error = HTTPAuthAPI.Hooks().transportFailure(
            .invalidResponse(reason: "the server redirected too many times"),
            HTTPRequest(method: .get, path: "/v1/auth/terms"))
        #expect(
            error.description
                == "The server sent an answer this app does not understand (the server redirected too many times).")
    }
}
