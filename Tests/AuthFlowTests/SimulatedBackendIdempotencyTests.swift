import AuthFlow
import AuthSimulator
import Foundation
import Operations
import Testing

/// The simulator honours `Idempotency-Key` (Docs/HTTP-API.md): a repeat gets the first answer and
/// the backend does not act again; a key reused on a different request, an empty or oversized key
/// are refused; a lost answer leaves the action done.
struct SimulatedBackendIdempotencyTests {
    private func call(_ key: IdempotencyKey) -> AuthCall { AuthCall(idempotencyKey: key) }

    /// Phone submitted and terms accepted: the token ready for `code/send`.
    private func acceptedToken(_ api: HTTPAuthAPI) async throws -> PhoneToken {
        let token = try await api.submitPhone(Fixtures.phone).get().phoneToken
        return try await api.acceptTerms(version: "1", phoneToken: token).get().phoneToken
    }

    @Test func theSameKeyTwiceSendsOneSMSAndAnswersTheSame() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let token = try await acceptedToken(api)
        let key = IdempotencyKey.make()

        let first = try await awaitCompletion { done in
            api.sendCode(phoneToken: token, call: call(key), completion: done)
        }
        let again = try await awaitCompletion { done in
            api.sendCode(phoneToken: token, call: call(key), completion: done)
        }
        #expect(try first.get() == again.get(), "the repeat is the first answer, not a 429")
        #expect(backend.sentSMS.count == 1)
        #expect(backend.requestCount(for: .codeSend) == 2)

        let other = try await awaitCompletion { done in
            api.sendCode(phoneToken: token, call: call(.make()), completion: done)
        }
        #expect(other.failure?.retryAfter != nil, "a new key is a new request: too soon after the SMS")
    }

    @Test func aRepeatedVerificationSpendsOneAttempt() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let token = try await api.readyForCode()
        let wrong = try SMSCode("000000", length: 6)
        let key = IdempotencyKey.make()

        for _ in 1...3 {
            let answer = try await awaitCompletion { done in
                api.verifyCode(wrong, phoneToken: token, call: call(key), completion: done)
            }
            #expect(answer == .failure(.invalidCode(attemptsLeft: 2)))
        }
        let next = try await api.verifyCode("000000", phoneToken: token)
        #expect(next == .failure(.invalidCode(attemptsLeft: 1)), "three repeats spent one attempt")
    }

    @Test func aRepeatedAcceptanceReturnsTheFirstReceipt() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let token = try await api.submitPhone(Fixtures.phone).get().phoneToken
        let key = IdempotencyKey.make()
        let first = try await awaitCompletion { done in
            api.acceptTerms(version: "1", phoneToken: token, call: call(key), completion: done)
        }
        let again = try await awaitCompletion { done in
            api.acceptTerms(version: "1", phoneToken: token, call: call(key), completion: done)
        }
        #expect(try first.get().phoneToken == again.get().phoneToken, "the same token, not a second one")
    }

    @Test func theSameKeyOnADifferentRequestIsRefused() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let token = try await api.readyForCode()
        let key = IdempotencyKey.make()
        _ = try await awaitCompletion { done in
            api.verifyCode(try! SMSCode("000000", length: 6), phoneToken: token, call: call(key), completion: done)
        }
        let different = try await awaitCompletion { done in
            api.verifyCode(try! SMSCode("111111", length: 6), phoneToken: token, call: call(key), completion: done)
        }
        #expect(different == .failure(.idempotencyKeyReused))
        #expect(try await api.verifyCode("000000", phoneToken: token) == .failure(.invalidCode(attemptsLeft: 1)))
    }

    @Test func keysAreKeptPerEndpoint() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let token = try await acceptedToken(api)
        let key = IdempotencyKey.make()
        _ = try await awaitCompletion { done in api.sendCode(phoneToken: token, call: call(key), completion: done) }
        let verified = try await awaitCompletion { done in
            api.verifyCode(try! SMSCode("123456", length: 6), phoneToken: token, call: call(key), completion: done)
        }
        #expect(verified.failure == nil, "one key serves code/send and code/verify of one attempt")
    }

    @Test func aKeptAnswerLivesAsLongAsAPhoneToken() async throws {
        let clock = TestClock()
        let backend = Fixtures.backend(clock: clock)
        let api = Fixtures.api(backend, clock: clock)
        let key = IdempotencyKey.make()
        let first = try await awaitCompletion { done in
            api.submitPhone(Fixtures.phone, call: call(key), completion: done)
        }
        clock.advance(by: backend.configuration.phoneTokenLifetime + 1)
        let later = try await awaitCompletion { done in
            api.submitPhone(Fixtures.phone, call: call(key), completion: done)
        }
        #expect(try first.get().phoneToken != later.get().phoneToken, "an expired key is a new request")
    }

    /// Expiry pinned key by key, the clock moved by hand: a key acts again once its answer has
    /// expired and not before, whatever expired around it — including an answer kept while the
    /// clock read later, so that the keys were not kept in the order they expire in.
    @Test func eachKeptAnswerExpiresOnItsOwnTime() async throws {
        let clock = TestClock()
        let backend = Fixtures.backend(clock: clock)
        let lifetime = backend.configuration.phoneTokenLifetime
        func submit(_ key: String) async throws -> String {
            let request = HTTPRequest(
                method: .post, path: "/v1/auth/phone",
                headers: ["Idempotency-Key": key, "Content-Type": "application/json"],
                body: Data(#"{"phone":"+79991234567"}"#.utf8))
            let response = try await awaitCompletion { done in backend.send(request, completion: done) }.get()
            #expect(response.status == 200)
            return String(decoding: response.body, as: UTF8.self)  // a new phone token each time it acts
        }

        let early = try await submit("early")
        clock.advance(by: 100)
        let late = try await submit("late")
        clock.advance(by: lifetime - 100)  // exactly early's expiry
        #expect(try await submit("early") != early, "expired at its expiry: acts again")
        #expect(try await submit("late") == late, "100 s left: the first answer")
        clock.advance(by: 99)
        #expect(try await submit("late") == late, "1 s left: still the first answer")
        clock.advance(by: 1)
        let lateAgain = try await submit("late")
        #expect(lateAgain != late, "expired: acts again")
        #expect(backend.actionCount(for: .phone) == 4, "early, late, early again, late again")

        // The clock goes back an hour: an answer kept now expires before those kept earlier.
        clock.advance(by: -3_600)
        let back = try await submit("back")
        clock.advance(by: lifetime)
        #expect(try await submit("back") != back, "expired, though older answers have not")
        #expect(try await submit("late") == lateAgain, "kept later, still the first answer")
    }

    @Test(arguments: ["", String(repeating: "k", count: 256), String(repeating: "é", count: 128)])
    func anEmptyOrOversizedKeyIsAnInvalidRequest(key: String) async throws {
        let backend = Fixtures.backend()
        let request = HTTPRequest(
            method: .post, path: "/v1/auth/phone",
            headers: ["Idempotency-Key": key, "Content-Type": "application/json"],
            body: Data(#"{"phone":"+79991234567"}"#.utf8))
        let response = try await awaitCompletion { done in backend.send(request, completion: done) }.get()
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self).contains("invalid_request"))
        #expect(!String(decoding: response.body, as: UTF8.self).contains(String(repeating: "k", count: 20)))
    }

    @Test func aKeyOf255CharactersIsAccepted() async throws {
        let backend = Fixtures.backend()
        let request = HTTPRequest(
            method: .post, path: "/v1/auth/phone",
            headers: ["Idempotency-Key": String(repeating: "k", count: 255), "Content-Type": "application/json"],
            body: Data(#"{"phone":"+79991234567"}"#.utf8))
        let response = try await awaitCompletion { done in backend.send(request, completion: done) }.get()
        #expect(response.status == 200)
    }

    @Test func aKeyOnAGetIsIgnored() async throws {
        let backend = Fixtures.backend()
        let request = HTTPRequest(method: .get, path: "/v1/auth/terms", headers: ["Idempotency-Key": ""])
        let response = try await awaitCompletion { done in backend.send(request, completion: done) }.get()
        #expect(response.status == 401, "judged as a GET without a token, not as a bad key")
    }

    @Test func aLostResponseLeavesTheActionDone() async throws {
        let backend = Fixtures.backend(faults: [.codeSend: [.lostResponse(times: 1)]])
        let api = Fixtures.api(backend)
        let token = try await acceptedToken(api)
        let key = IdempotencyKey.make()
        let lost = try await awaitCompletion { done in
            api.sendCode(phoneToken: token, call: call(key), completion: done)
        }
        #expect(lost == .failure(.connectionLost))
        #expect(backend.sentSMS.count == 1, "the SMS went out although the answer was lost")
        let repeated = try await awaitCompletion { done in
            api.sendCode(phoneToken: token, call: call(key), completion: done)
        }
        #expect(repeated.failure == nil)
        #expect(backend.sentSMS.count == 1)
    }
}
