import AuthFlow
import AuthSimulator
import Foundation
import Operations
import Testing

/// `POST /v1/auth/sign-out` as `Docs/HTTP-API.md` states it: a revoked token no longer passes
/// `GET /v1/auth/session`, and revoking is idempotent.
struct SimulatedBackendSignOutTests {
    private func signIn(_ api: HTTPAuthAPI) async throws -> AuthToken {
        let phoneToken = try await api.readyForCode()
        return try await api.verifyCode("123456", phoneToken: phoneToken).get()
    }

    @Test func aRevokedTokenFailsTheSessionCheck() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let token = try await signIn(api)
        _ = try await api.fetchSession(authToken: token).get()

        #expect(try await api.signOut(authToken: token) == nil)

        #expect(try await api.fetchSession(authToken: token) == .failure(.unauthorized))
        #expect(backend.requestCount(for: .signOut) == 1)
    }

    @Test func revokingOnlyEndsThatSession() async throws {
        let api = Fixtures.api(Fixtures.backend())
        let kept = try await signIn(api)
        let revoked = try await signIn(api)

        #expect(try await api.signOut(authToken: revoked) == nil)

        _ = try await api.fetchSession(authToken: kept).get()
    }

    @Test func signingOutAgainOrWithAnUnknownTokenSucceeds() async throws {
        let api = Fixtures.api(Fixtures.backend())
        let token = try await signIn(api)
        #expect(try await api.signOut(authToken: token) == nil)
        #expect(try await api.signOut(authToken: token) == nil)
        #expect(try await api.signOut(authToken: AuthToken("not-a-token", expiresAt: Date())) == nil)
    }

    @Test func withoutABearerTokenItIsUnauthorized() async throws {
        let backend = Fixtures.backend()
        let answer: Result<HTTPResponse, TransportError> = try await awaitCompletion { done in
            backend.send(HTTPRequest(method: .post, path: "/v1/auth/sign-out", body: Data("{}".utf8)), completion: done)
        }
        #expect(try answer.get().status == 401)
    }

    @Test func aTransientFailureKeepsTheSessionAlive() async throws {
        let backend = Fixtures.backend(faults: [.signOut: [.unavailable(times: 1)]])
        let api = Fixtures.api(backend)
        let token = try await signIn(api)

        #expect(try await api.signOut(authToken: token) == .serverError(status: 503, retryAfter: 1))

        _ = try await api.fetchSession(authToken: token).get()
    }
}
