import AuthFlow
import Foundation
import Operations
import OperationsTesting
import Testing

/// What an ``AuthCall`` does on the way to the wire: the timeout on the call's scheduler, the
/// cancellation reaching the transport, the `Idempotency-Key` header on `POST`s only.
struct HTTPAuthAPICallTests {
    private let token = PhoneToken("sim.phone.token")

    @Test func theTimeoutRunsOnTheCallsSchedulerAndCancelsTheRequest() async throws {
        let transport = RecordingTransport()
        let scheduler = TestScheduler()
        let api = Fixtures.api(transport, timeout: .seconds(15))
        let result = Mailbox<Result<CodeDelivery, AuthError>>()
        api.sendCode(phoneToken: token, call: AuthCall(scheduler: scheduler)) { result.put($0) }

        #expect(scheduler.requestedDelays == [.seconds(15)])
        scheduler.advance(by: .seconds(14))
        #expect(result.isEmpty, "no wall clock: nothing happens before the scheduler's time")
        scheduler.advance(by: .seconds(1))
        #expect(try result.take() == .failure(.timeout))
        #expect(transport.cancellations.first??.isCancelled == true, "the transport was told to stop")
    }

    @Test func cancellingTheCallFinishesItAndStopsTheTransport() throws {
        let transport = RecordingTransport()
        let scheduler = TestScheduler()
        let api = Fixtures.api(transport)
        let cancellation = CancellationToken()
        let result = Mailbox<Result<CodeDelivery, AuthError>>()
        api.sendCode(phoneToken: token, call: AuthCall(cancellation: cancellation, scheduler: scheduler)) {
            result.put($0)
        }
        cancellation.cancel()

        #expect(try result.take() == .failure(.cancelled))
        #expect(transport.cancellations.first??.isCancelled == true)
        #expect(scheduler.pendingCount == 0, "the timeout was cancelled with the call")
        scheduler.advance(by: .seconds(60))
        #expect(result.isEmpty, "the timeout does not deliver a second result")
    }

    @Test func anAnswerCancelsTheTimeout() async throws {
        let transport = RecordingTransport(answer: HTTPResponse(status: 503))
        let scheduler = TestScheduler()
        let api = Fixtures.api(transport)
        let result = try await awaitCompletion { done in
            api.sendCode(phoneToken: token, call: AuthCall(scheduler: scheduler), completion: done)
        }
        #expect(result == .failure(.serverError(status: 503)))
        #expect(scheduler.pendingCount == 0)
        #expect(transport.cancellations.first??.isCancelled == false)
    }

    @Test func postsCarryTheKeyAndGetsNever() async throws {
        let transport = RecordingTransport(answer: HTTPResponse(status: 503))
        let api = Fixtures.api(transport)
        let key = try #require(IdempotencyKey("key-of-the-attempt-0001"))
        let call = AuthCall(idempotencyKey: key)
        _ = try await awaitCompletion { done in api.sendCode(phoneToken: token, call: call, completion: done) }
        _ = try await awaitCompletion { done in api.fetchTerms(phoneToken: token, call: call, completion: done) }
        _ = try await awaitCompletion { done in api.sendCode(phoneToken: token, call: AuthCall(), completion: done) }

        #expect(transport.requests.map { $0.headers["Idempotency-Key"] } == [key.rawValue, nil, nil])
    }

    @Test func theKeyNeverPrintsInClear() throws {
        let key = try #require(IdempotencyKey("0123456789abcdef0123456789abcdef"))
        let request = HTTPRequest(method: .post, path: "/v1/auth/code/send", headers: ["Idempotency-Key": key.rawValue])
        #expect(!request.description.contains(key.rawValue))
        #expect(request.description.contains("idempotency-key: idk…cdef"))
        let odd = HTTPRequest(method: .post, path: "/", headers: ["Idempotency-Key": ""])
        #expect(odd.description.contains("idempotency-key: …"), "an invalid key is masked too")
    }

    @Test(arguments: [
        (AuthError.timeout, true), (.connectionLost, true), (.cancelled, true), (.serverError(status: 502), true),
        (.serverError(status: 503), false), (.unreachable(reason: "connection refused"), false),
        (.invalidCode(attemptsLeft: 2), false), (.rateLimited(retryAfter: 5), false), (.codeExpired, false),
        (.idempotencyKeyReused, false),
    ])
    func uncertainOutcomes(error: AuthError, uncertain: Bool) {
        #expect(error.outcomeIsUncertain == uncertain)
        #expect((error as any Error).outcomeIsUncertain == uncertain)
    }

    @Test func theNewErrorsSpeakPlainly() {
        #expect(AuthError.connectionLost.isTransient)
        #expect(!AuthError.cancelled.isTransient)
        #expect(!AuthError.idempotencyKeyReused.isTransient)
        #expect(AuthError.unexpectedStatus(302, code: nil).description.contains("redirect"))
    }
}
