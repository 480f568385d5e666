import AuthFlow
import AuthFlowURLSession
import AuthSimulator
import Foundation
import HTTPTestSupport
import Operations
import OperationsTesting
import Testing

/// `URLSessionTransport` over a real socket: a server on 127.0.0.1, started by the test, serving
/// the simulator's answers.
struct URLSessionTransportTests {
    /// Starts a server serving `backend`, or cancels (skips) the test with the reason it could
    /// not start.
    private func startServer(_ backend: SimulatedBackend) throws -> RecordingServer {
        try started { try RecordingServer(serving: backend) }
    }

    /// Starts a server that holds every request unanswered and sees the client close.
    private func startHoldingServer() throws -> RecordingServer {
        let server = try startServer(Fixtures.backend())
        server.hold()
        return server
    }

    private func started<Server>(_ start: () throws -> Server) throws -> Server {
        do {
            return try start()
        } catch {
            try Test.cancel("no HTTP server on 127.0.0.1: \(error)")
        }
    }

    @Test func signInOverTheNetwork() async throws {
        let backend = Fixtures.backend()
        let server = try startServer(backend)
        defer { server.stop() }
        let api = HTTPAuthAPI(transport: URLSessionTransport(baseURL: server.baseURL), timeout: TestTimeout.standard)

        let phoneToken = try await api.readyForCode()
        #expect(try await api.verifyCode("000000", phoneToken: phoneToken) == .failure(.invalidCode(attemptsLeft: 2)))
        let token = try await api.verifyCode("123456", phoneToken: phoneToken).get()
        #expect(try await api.fetchSession(authToken: token).get().phone == Fixtures.phone)
        #expect(
            backend.requestCounts == [.phone: 1, .terms: 1, .termsAccept: 1, .codeSend: 1, .codeVerify: 2, .session: 1])
    }

    @Test func headersAndBodiesSurviveTheTrip() async throws {
        let server = try startServer(Fixtures.backend())
        defer { server.stop() }
        let transport = URLSessionTransport(baseURL: server.baseURL)
        let request = HTTPRequest(
            method: .post, path: "/v1/auth/phone", headers: ["Content-Type": "application/json"],
            body: Data(#"{"phone":"+79991234567"}"#.utf8), timeout: TestTimeout.standard)
        let response = try await awaitCompletion { done in transport.send(request, completion: done) }.get()
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self).contains(#""codeLength":6"#))

        let unauthorized = HTTPRequest(method: .get, path: "/v1/auth/terms", timeout: TestTimeout.standard)
        let refused = try await awaitCompletion { done in transport.send(unauthorized, completion: done) }.get()
        #expect(refused.status == 401)
        #expect(refused.headers["WWW-Authenticate"] == "Bearer")
    }

    @Test func aHangingServerTimesOut() async throws {
        let backend = Fixtures.backend(faults: [.phone: [.hang(times: 1)]])
        let server = try startServer(backend)
        defer { server.stop() }
        let api = HTTPAuthAPI(transport: URLSessionTransport(baseURL: server.baseURL), timeout: .milliseconds(300))
        #expect(try await api.submitPhone(Fixtures.phone) == .failure(.timeout))
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let server = try startServer(Fixtures.backend())
        let url = server.baseURL
        server.stop()
        let api = HTTPAuthAPI(transport: URLSessionTransport(baseURL: url), timeout: TestTimeout.standard)
        let result = try await api.submitPhone(Fixtures.phone)
        guard case .failure(.unreachable) = result else {
            Issue.record("expected unreachable, got \(result)")
            return
        }
    }

    // MARK: - Cancellation, timeouts, redirects

    @Test func cancellingTheCallClosesTheConnectionAtOnce() async throws {
        let server = try startHoldingServer()
        defer { server.stop() }
        // Neither timeout may beat the cancellation on a loaded machine (a fresh clone building
        // and testing at once saw the transport's default 15 s fire first, and with seven builds
        // beside the suite 120 s did too): both outlast every wait of the test.
        let patience = TestTimeout.standard * 2
        let api = HTTPAuthAPI(
            transport: URLSessionTransport(baseURL: server.baseURL, timeout: patience), timeout: patience)
        let token = CancellationToken()
        let result = Mailbox<Result<PhoneSession, AuthError>>()
        api.submitPhone(Fixtures.phone, call: AuthCall(cancellation: token)) { result.put($0) }

        let arrived = await OwnThread.run { server.wait { !$0.requests.isEmpty } }
        #expect(arrived, "the request reached the server")
        token.cancel()
        let closed = await OwnThread.run { server.wait { $0.closedWhileHeld > 0 } }
        #expect(closed, "the server saw the client close the connection long before either timeout")
        let outcome = try await OwnThread.run { try result.take() }
        #expect(outcome == .failure(.cancelled), "\(outcome)")
    }

    @Test func theClientsTimeoutCancelsTheRequestOnTheWire() async throws {
        let server = try startHoldingServer()
        defer { server.stop() }
        let scheduler = TestScheduler()
        let api = HTTPAuthAPI(transport: URLSessionTransport(baseURL: server.baseURL), timeout: .seconds(10))
        let result = Mailbox<Result<PhoneSession, AuthError>>()
        api.submitPhone(Fixtures.phone, call: AuthCall(scheduler: scheduler)) { result.put($0) }

        #expect(await OwnThread.run { server.wait { !$0.requests.isEmpty } })
        #expect(scheduler.requestedDelays == [.seconds(10)])
        scheduler.advance(by: .seconds(10))
        #expect(try await OwnThread.run { try result.take() } == .failure(.timeout))
        #expect(
            await OwnThread.run { server.wait { $0.closedWhileHeld > 0 } },
            "the timed-out request's connection was closed")
    }

    @Test func theTransportsOwnTimeoutApplies() async throws {
        let server = try startHoldingServer()
        defer { server.stop() }
        // The client would wait a minute; the session's own timeout gives up first.
        let transport = URLSessionTransport(baseURL: server.baseURL, timeout: .seconds(1))
        let request = HTTPRequest(method: .post, path: "/v1/auth/phone", timeout: .seconds(1))
        let answer = try await awaitCompletion(timeout: .seconds(10)) { done in
            transport.send(request, completion: done)
        }
        #expect(answer == .failure(.timeout))
        #expect(
            await OwnThread.run { server.wait { $0.closedWhileHeld > 0 } },
            "the connection was closed, not kept until exit")
    }

    @Test func aRedirectIsNotFollowed() async throws {
        let redirect = HTTPResponse(status: 301, headers: ["Location": "/v1/auth/phone"])
        let server = try started { try RecordingServer { _ in redirect } }
        defer { server.stop() }
        let api = HTTPAuthAPI(transport: URLSessionTransport(baseURL: server.baseURL), timeout: TestTimeout.standard)

        let result = try await api.submitPhone(Fixtures.phone)
        #expect(result == .failure(.unexpectedStatus(301, code: nil)))
        #expect(result.failure?.description.contains("does not follow redirects") == true)
        #expect(server.requests.map(\.method) == [.post], "one POST, and no GET after it")
    }

    /// libcurl (FoundationNetworking on Linux) sends a request again by itself — a POST without
    /// its body — when a connection it reused closes before any answer. A request with side
    /// effects therefore never goes out on a reused connection: against a server that keeps its
    /// connections alive and then acts and closes without a word, the POST arrives once, whole,
    /// and the lost answer is reported at once, not after the client's timeout.
    @Test func aPOSTIsNeverSentAgainByTheStackWhenItsAnswerIsLost() async throws {
        let answer = #"{"codeLength":6,"phoneToken":"sim1.token","termsRequired":true}"#
        let server = try started {
            try ScriptedServer { _, index in
                index == 1
                    ? .closeWithoutAnswer
                    : .answer(
                        status: 200, headers: [("Content-Type", "application/json")], body: answer, keepAlive: true)
            }
        }
        defer { server.stop() }
        let scheduler = TestScheduler()
        let api = HTTPAuthAPI(transport: URLSessionTransport(baseURL: server.baseURL), timeout: .seconds(10))
        let call = AuthCall(scheduler: scheduler, idempotencyKey: IdempotencyKey.make())
        let first = try await awaitCompletion { done in
            api.submitPhone(Fixtures.phone, call: call.withoutKey, completion: done)
        }
        #expect(first.failure == nil, "the first answer keeps the connection alive")

        let lost = try await awaitCompletion { done in api.submitPhone(Fixtures.phone, call: call, completion: done) }

        #expect(lost == .failure(.connectionLost), "at once, while the client's timeout is still pending")
        #expect(scheduler.requestedDelays == [.seconds(10), .seconds(10)])
        #expect(server.requests.count == 2, "the keyed POST arrived once")
        #expect(server.requests.last?.body.count == #"{"phone":"+79991234567"}"#.utf8.count, "with its whole body")
        #expect(server.requests.last?.headers["idempotency-key"] == call.idempotencyKey?.rawValue)
        #expect(
            server.wait { $0.closedByClient == 0 && $0.connections == 2 }, "and no empty copy on a third connection")
    }

    @Test func theIdempotencyKeyCrossesTheWire() async throws {
        let backend = Fixtures.backend()
        let server = try startServer(backend)
        defer { server.stop() }
        let api = HTTPAuthAPI(transport: URLSessionTransport(baseURL: server.baseURL), timeout: TestTimeout.standard)
        let token = try await api.submitPhone(Fixtures.phone).get().phoneToken
        let key = IdempotencyKey.make()
        let call = AuthCall(idempotencyKey: key)
        let first = try await awaitCompletion { done in
            api.acceptTerms(version: "1", phoneToken: token, call: call, completion: done)
        }
        let again = try await awaitCompletion { done in
            api.acceptTerms(version: "1", phoneToken: token, call: call, completion: done)
        }
        #expect(try first.get() == again.get(), "the repeat got the first receipt")
        #expect(server.requests.last?.headers["Idempotency-Key"] == key.rawValue)
    }
}
