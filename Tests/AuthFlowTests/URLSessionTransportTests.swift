import AuthFlow
import Foundation
import Testing

/// `URLSessionTransport` over a real socket: a server on 127.0.0.1, started by the test, serving
/// the simulator's answers.
struct URLSessionTransportTests {
    /// Starts a server or cancels (skips) the test with the reason it could not start.
    private func startServer(_ backend: SimulatedBackend) throws -> LoopbackHTTPServer {
        do {
            return try LoopbackHTTPServer(serving: backend)
        } catch {
            try Test.cancel("no HTTP server on 127.0.0.1: \(error)")
        }
    }

    @Test func signInOverTheNetwork() async throws {
        let backend = Fixtures.backend()
        let server = try startServer(backend)
        defer { server.stop() }
        let api = HTTPAuthAPI(transport: URLSessionTransport(baseURL: server.baseURL), timeout: .seconds(5))

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
            body: Data(#"{"phone":"+79991234567"}"#.utf8), timeout: .seconds(5))
        let response = try await awaitCompletion { done in transport.send(request, completion: done) }.get()
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self).contains(#""codeLength":6"#))

        let unauthorized = HTTPRequest(method: .get, path: "/v1/auth/terms", timeout: .seconds(5))
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
        let api = HTTPAuthAPI(transport: URLSessionTransport(baseURL: url), timeout: .seconds(5))
        let result = try await api.submitPhone(Fixtures.phone)
        guard case .failure(.unreachable) = result else {
            Issue.record("expected unreachable, got \(result)")
            return
        }
    }
}
