import AuthFlow
import AuthSimulator
import Foundation
import HTTPTestSupport
import Operations
import OperationsTesting
import Testing

/// The sign-in over a real socket on 127.0.0.1 (`PlainHTTPTransport` to the simulator behind the
/// package's server), where QA found requests sent twice by the HTTP stack (issue 35, point 6):
/// each attempt of a step is one request on the wire, a lost answer is the step's failure at
/// once, and a server's `Retry-After` is what the step's retry waits, on the test scheduler.
///
/// Time moves only when a test advances ``SignInHarness/scheduler``; the transport's own deadline
/// runs on a scheduler nobody advances. A lost answer reported without moving time was reported
/// without the timeout path.
@Suite(.serialized)
struct OneRequestPerAttemptTests {
    private func started<Server>(_ start: () throws -> Server) throws -> Server {
        do {
            return try start()
        } catch {
            try Test.cancel("no HTTP server on 127.0.0.1: \(error)")
        }
    }

    /// A harness whose client talks to `server` over a socket, with a transport deadline that
    /// never comes.
    private func harness(
        _ backend: SimulatedBackend, clock: TestClock, at baseURL: URL, transportClock: TestScheduler
    ) throws -> SignInHarness {
        let transport = try PlainHTTPTransport(baseURL: baseURL, scheduler: transportClock)
        return SignInHarness(
            backend: backend, clock: clock,
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted, .accepted],
                code: [.submitted(Fixtures.code), .submitted(Fixtures.code)]),
            transport: transport)
    }

    private static func backend(faults: [SimulatedBackend.Endpoint: [SimulatedBackend.Fault]], clock: TestClock)
        -> SimulatedBackend
    {
        var configuration = SimulatedBackend.Configuration(smsCode: "123456", termsRequired: true, faults: faults)
        configuration.clock = clock.function
        configuration.instanceID = 1
        return SimulatedBackend(configuration: configuration)
    }

    /// The steps' failures as the scenario's observer saw them: the step's name and its error.
    private static func failures(_ recorder: ScenarioRecorder) -> [(step: String, error: any Error, delay: Duration?)] {
        recorder.events.compactMap { event in
            guard case .stepFailed(let error, true, let delay) = event.kind else { return nil }
            return (event.step, error, delay)
        }
    }

    @Test(arguments: [
        (SimulatedBackend.Endpoint.termsAccept, "terms/accept", "TermsOfUseOp"),
        (.codeSend, "code/send", "CodeOp"),
        (.codeVerify, "code/verify", "CodeOp"),
    ])
    func aServerThatActsAndClosesGetsOneWholeRequestPerAttempt(
        endpoint: SimulatedBackend.Endpoint, path: String, step: String
    ) async throws {
        let clock = TestClock(Date())
        let backend = Self.backend(faults: [endpoint: [.lostResponse(times: 1)]], clock: clock)
        // A server that keeps connections alive and counts them, and the requests left half-sent.
        let server = try started { try ScriptedServer(serving: backend) }
        defer { server.stop() }
        let transportClock = TestScheduler()
        let harness = try harness(backend, clock: clock, at: server.baseURL, transportClock: transportClock)

        let report = await harness.signIn()

        expectKeptContract(report)
        #expect(try harness.storage.loadAuthToken() == report.value())
        // The lost answer is the step's failure, at once: a lost connection, never a timeout.
        let failures = Self.failures(harness.recorder)
        #expect(failures.map(\.step) == [step], "\(harness.recorder.stepLines)")
        #expect(failures.first?.error as? AuthError == .connectionLost)
        #expect(failures.first?.error.outcomeIsUncertain == true)
        #expect(harness.scheduler.requestedDelays.allSatisfy { $0 == SignInHarness.requestTimeout })
        #expect(harness.scheduler.pendingCount == 0, "every request's timeout was cancelled by its answer")
        #expect(transportClock.requestedDelays.allSatisfy { $0 == SignInHarness.requestTimeout })
        // On the wire: two attempts, two requests, each whole and under the one key, and no
        // connection but those that carried a whole request.
        let requests = server.requests.filter { $0.target.hasSuffix(path) }
        #expect(requests.count == 2)
        #expect(Set(requests.map(\.body)).count == 1 && requests.allSatisfy { !$0.body.isEmpty })
        let keys = requests.map { $0.headers["idempotency-key"] }
        #expect(keys.count == 2 && keys[0] != nil && keys[0] == keys[1])
        #expect(server.wait { $0.connections == $0.requests.count && $0.closedByClient == 0 })
        #expect(backend.actionCount(for: endpoint) == 1, "the backend acted once")
        #expect(backend.sentSMS.count == 1)
    }

    /// A `429` with `Retry-After: 29`: the step's retry waits 29 s on the test scheduler — or
    /// the policy's limit when that is less — not the backoff's 0.2 s. PhoneOp retries its
    /// request itself, TermsOfUseOp through the scenario's policy: both wait as asked.
    @Test(arguments: [
        ("auth/phone", Duration.seconds(60), Duration.seconds(29)),
        ("terms/accept", .seconds(60), .seconds(29)),
        ("terms/accept", .seconds(10), .seconds(10)),
    ])
    func aRateLimitedRequestIsRetriedWhenTheServerAsked(path: String, limit: Duration, expected: Duration)
        async throws
    {
        let clock = TestClock(Date())
        let backend = Self.backend(faults: [:], clock: clock)
        let refusing = RefusingOnce(backend, pathSuffix: path, status: 429, retryAfter: "29")
        let server = try started { try RecordingServer(serving: refusing) }
        defer { server.stop() }
        let harness = try harness(backend, clock: clock, at: server.baseURL, transportClock: TestScheduler())
        let retry = RetryPolicy.transient(
            maxAttempts: 3, backoff: Backoff(initial: .milliseconds(200), cap: .seconds(2)), maxRequestedDelay: limit)
        let factory = AuthFlowFactory(
            api: harness.api, storage: harness.storage, screens: harness.screens, retry: retry)
        let result = Mailbox<Result<AuthToken, any Error>>()
        factory.makeAuthScenario().launch(harness.context(nil)) { result.put($0) }

        try await OwnThread.run { try harness.waitForScheduledWork() }
        #expect(harness.scheduler.requestedDelays.filter { $0 != SignInHarness.requestTimeout } == [expected])
        #expect(result.isEmpty)
        harness.scheduler.advance(by: expected - .milliseconds(1))
        #expect(server.count(pathEndingWith: path) == 1, "not retried before the time asked")
        harness.scheduler.advance(by: .milliseconds(1))

        let token = try await OwnThread.run { try result.take() }.get()
        #expect(try harness.storage.loadAuthToken() == token)
        // The same request again: its body, and its key where it has one (the phone has none).
        let requests = server.requests.filter { $0.path.hasSuffix(path) }
        #expect(requests.count == 2)
        #expect(Set(requests.map(\.body)).count == 1)
        #expect(Set(requests.map { $0.headers["Idempotency-Key"] }).count == 1)
    }
}

/// Answers the first request to a path with a refusal and a `Retry-After`, then passes every
/// request on to the simulator: a backend that is briefly overloaded.
private struct RefusingOnce: HTTPTransport {
    let backend: SimulatedBackend
    let pathSuffix: String
    let status: Int
    let retryAfter: String
    private let refused = LockedState(false)

    init(_ backend: SimulatedBackend, pathSuffix: String, status: Int, retryAfter: String) {
        self.backend = backend
        self.pathSuffix = pathSuffix
        self.status = status
        self.retryAfter = retryAfter
    }

    func send(
        _ request: HTTPRequest, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        let refuse =
            request.path.hasSuffix(pathSuffix)
            && refused.withLock { refused in
                defer { refused = true }
                return !refused
            }
        guard refuse else { return backend.send(request, cancellation: cancellation, completion: completion) }
        let body = #"{"error":{"code":"rate_limited","message":"Too many requests."}}"#
        completion(
            .success(
                HTTPResponse(
                    status: status, headers: ["Content-Type": "application/json", "Retry-After": retryAfter],
                    body: Data(body.utf8))))
    }
}
