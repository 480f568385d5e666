import AuthFlow
import AuthSimulator
import Foundation
import Operations
import Testing

/// Faults on every endpoint, not only the ones `HTTPAuthAPITests` tries: each decoder meets a
/// broken body, each request an unexpected status, a server error and a hang, and a late answer
/// after the client's timeout is dropped.
struct HTTPAuthAPIFaultTests {
    /// Calls the client method behind `endpoint` with placeholder arguments (a fault answers
    /// before the simulator looks at them) and returns its error, or `nil` when it succeeded.
    private func call(_ endpoint: SimulatedBackend.Endpoint, on api: HTTPAuthAPI) async throws -> AuthError? {
        let token = PhoneToken("placeholder")
        switch endpoint {
        case .phone: return try await api.submitPhone(Fixtures.phone).failure
        case .terms: return try await api.fetchTerms(phoneToken: token).failure
        case .termsAccept: return try await api.acceptTerms(version: "1", phoneToken: token).failure
        case .codeSend: return try await api.sendCode(phoneToken: token).failure
        case .codeVerify: return try await api.verifyCode("123456", phoneToken: token).failure
        case .session:
            return try await api.fetchSession(authToken: AuthToken("placeholder", expiresAt: Date())).failure
        case .signOut:
            return try await api.signOut(authToken: AuthToken("placeholder", expiresAt: Date()))
        }
    }

    @Test(arguments: SimulatedBackend.Endpoint.allCases)
    func aBodyThatIsNotJSONIsAMalformedResponseOnEveryEndpoint(endpoint: SimulatedBackend.Endpoint) async throws {
        let backend = Fixtures.backend(faults: [endpoint: [.malformedBody(times: 1)]])
        let error = try await call(endpoint, on: Fixtures.api(backend))
        #expect(error == .malformedResponse(reason: "the body is not valid JSON"))
        #expect(error?.isTransient == false)
        #expect(backend.requestCounts == [endpoint: 1])
    }

    @Test(arguments: SimulatedBackend.Endpoint.allCases)
    func anUnexpectedStatusKeepsItsCodeOnEveryEndpoint(endpoint: SimulatedBackend.Endpoint) async throws {
        let backend = Fixtures.backend(faults: [endpoint: [.status(418, times: 1)]])
        let error = try await call(endpoint, on: Fixtures.api(backend))
        #expect(error == .unexpectedStatus(418, code: "injected_fault"))
        #expect(error?.isTransient == false)
    }

    @Test(arguments: SimulatedBackend.Endpoint.allCases)
    func serverErrorsAreTransientOnEveryEndpoint(endpoint: SimulatedBackend.Endpoint) async throws {
        let backend = Fixtures.backend(faults: [endpoint: [.status(500, times: 1), .unavailable(times: 1)]])
        let api = Fixtures.api(backend)
        #expect(try await call(endpoint, on: api) == .serverError(status: 500))
        #expect(try await call(endpoint, on: api) == .serverError(status: 503, retryAfter: 1))
        #expect(AuthError.serverError(status: 503).isTransient)
        #expect(backend.requestCounts == [endpoint: 2])
    }

    @Test(arguments: SimulatedBackend.Endpoint.allCases)
    func aHangEndsInTheClientTimeoutOnEveryEndpoint(endpoint: SimulatedBackend.Endpoint) async throws {
        let backend = Fixtures.backend(faults: [endpoint: [.hang(times: 1)]])
        let error = try await call(endpoint, on: Fixtures.api(backend, timeout: .milliseconds(50)))
        #expect(error == .timeout)
        #expect(error?.isTransient == true)
        #expect(backend.requestCounts == [endpoint: 1])
    }

    @Test func anAnswerArrivingAfterTheTimeoutIsDropped() async throws {
        let held = HeldTransport(Fixtures.backend())
        let api = Fixtures.api(held, timeout: .milliseconds(50))
        let deliveries = LockedState<[Result<PhoneSession, AuthError>]>([])
        let first: Result<PhoneSession, AuthError> = try await awaitCompletion { done in
            api.submitPhone(Fixtures.phone, call: AuthCall()) { result in
                deliveries.withLock { $0.append(result) }
                done(result)
            }
        }
        #expect(first == .failure(.timeout))
        // The simulator's real answer, released only now, must not reach the caller a second time.
        let late = try await awaitCompletion { done in held.release(then: done) }
        #expect(try late.get().status == 200)
        #expect(deliveries.withLock { $0.count } == 1)
    }
}

/// Forwards one request to a transport but holds its answer until the test releases it: an
/// answer that arrives after the client gave up, without waiting for real time to pass.
final class HeldTransport: HTTPTransport {
    typealias Answer = Result<HTTPResponse, TransportError>

    private struct State {
        var answer: Answer?
        var completion: (@Sendable (Answer) -> Void)?
        var released: (@Sendable (Answer) -> Void)?
    }

    private let base: any HTTPTransport
    private let state = LockedState(State())

    init(_ base: any HTTPTransport) {
        self.base = base
    }

    func send(
        _ request: HTTPRequest, cancellation: CancellationToken?, completion: @escaping @Sendable (Answer) -> Void
    ) {
        base.send(request) { answer in
            self.settle {
                $0.answer = answer
                $0.completion = completion
            }
        }
    }

    /// Delivers the held answer to the client as soon as the base transport has produced it.
    ///
    /// - Parameter done: Receives the answer, after the client's completion was called with it.
    func release(then done: @escaping @Sendable (Answer) -> Void) {
        settle { $0.released = done }
    }

    /// Applies `change`; when the answer is in and released, delivers it, once.
    private func settle(_ change: (inout State) -> Void) {
        let due = state.withLock { state -> (Answer, @Sendable (Answer) -> Void, @Sendable (Answer) -> Void)? in
            change(&state)
            guard let answer = state.answer, let completion = state.completion, let done = state.released else {
                return nil
            }
            state = State()
            return (answer, completion, done)
        }
        guard let (answer, completion, done) = due else { return }
        completion(answer)
        done(answer)
    }
}
