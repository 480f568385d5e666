import AuthFlow
import AuthSimulator
import Foundation
import Operations
import Testing

/// Simulators over one ``SimulatorStateStore`` are one backend, as a rerun in a new process meets
/// the backend a long-running server would have been: what one sent, counted, locked, accepted,
/// revoked or kept, the next one knows; so does one given the same fault plan, which goes on with
/// what is left of it. A stored state that cannot be used is replaced and said once; one that
/// cannot be stored is a 503 that did nothing.
struct SimulatedBackendStoredStateTests {
    /// A simulator as a new process makes it: its own instance, the given store and clock.
    private func backend(
        _ store: any SimulatorStateStore, clock: TestClock, termsVersion: String = "1",
        faults: [SimulatedBackend.Endpoint: [SimulatedBackend.Fault]] = [:], instanceID: UInt64 = 1,
        problems: LockedState<[SimulatorStateProblem]> = LockedState([]), sms: LockedState<Int> = LockedState(0)
    ) -> SimulatedBackend {
        var configuration = SimulatedBackend.Configuration(termsVersion: termsVersion, faults: faults)
        configuration.clock = clock.function
        configuration.instanceID = instanceID
        configuration.stateStore = store
        configuration.onStateProblem = { problem in problems.withLock { $0.append(problem) } }
        configuration.onSMS = { _ in sms.withLock { $0 += 1 } }
        return SimulatedBackend(configuration: configuration)
    }

    private func call(_ key: IdempotencyKey) -> AuthCall { AuthCall(idempotencyKey: key) }

    @Test func aLaterInstanceVerifiesTheCodeAnEarlierOneSentAndCountsItsAttempts() async throws {
        let store = InMemorySimulatorStateStore()
        let clock = TestClock()
        let first = Fixtures.api(backend(store, clock: clock), clock: clock)
        let token = try await first.readyForCode()
        #expect(try await first.verifyCode("000000", phoneToken: token) == .failure(.invalidCode(attemptsLeft: 2)))

        let second = Fixtures.api(backend(store, clock: clock), clock: clock)
        #expect(try await second.verifyCode("111111", phoneToken: token) == .failure(.invalidCode(attemptsLeft: 1)))
        #expect(try await second.verifyCode("123456", phoneToken: token).failure == nil)
    }

    @Test func aRepeatInALaterInstanceGetsTheKeptAnswerAndNoSecondSMS() async throws {
        let store = InMemorySimulatorStateStore()
        let clock = TestClock()
        let firstSMS = LockedState(0)
        let first = Fixtures.api(backend(store, clock: clock, sms: firstSMS), clock: clock)
        let token = try await first.readyForCode()
        let key = IdempotencyKey.make()
        let verify = try SMSCode("123456", length: 6)
        let signedIn = try await awaitCompletion { done in
            first.verifyCode(verify, phoneToken: token, call: call(key), completion: done)
        }

        let laterSMS = LockedState(0)
        let later = backend(store, clock: clock, sms: laterSMS)
        let repeated = try await awaitCompletion { done in
            Fixtures.api(later, clock: clock).verifyCode(verify, phoneToken: token, call: call(key), completion: done)
        }
        #expect(try repeated.get() == signedIn.get(), "the same token, answered from the kept answer")
        #expect(later.actionCount(for: .codeVerify) == 0)
        #expect(firstSMS.withLock { $0 } == 1)
        #expect(laterSMS.withLock { $0 } == 0)

        // A send repeated under its key is answered too, and announces nothing.
        let sendKey = IdempotencyKey.make()
        let sent = try await awaitCompletion { done in
            Fixtures.api(later, clock: clock).sendCode(phoneToken: token, call: call(sendKey), completion: done)
        }
        let resent = try await awaitCompletion { done in
            Fixtures.api(backend(store, clock: clock, sms: laterSMS), clock: clock)
                .sendCode(phoneToken: token, call: call(sendKey), completion: done)
        }
        #expect(try sent.get() == resent.get())
        #expect(laterSMS.withLock { $0 } == 1, "one SMS for two requests under one key, in two instances")
        #expect(!String(decoding: store.bytes ?? Data(), as: UTF8.self).contains(sendKey.rawValue))
    }

    @Test func locksRevocationsAcceptancesAndIssuedTokensCarryOver() async throws {
        let store = InMemorySimulatorStateStore()
        let clock = TestClock()
        let first = Fixtures.api(backend(store, clock: clock), clock: clock)
        let token = try await first.readyForCode()
        let signedIn = try await first.verifyCode("123456", phoneToken: token).get()
        #expect(try await first.signOut(authToken: signedIn) == nil)
        let other = try PhoneNumber(parsing: "+7 999 000-11-22")
        let locked = try await first.readyForCode(other)
        for _ in 1...3 { _ = try await first.verifyCode("000000", phoneToken: locked) }

        // The same instance id: were the issued counter not kept, this would reissue a token.
        let second = Fixtures.api(backend(store, clock: clock), clock: clock)
        #expect(try await second.fetchSession(authToken: signedIn).failure == .unauthorized)
        #expect(try await second.submitPhone(other).failure?.retryAfter != nil, "still locked")
        let again = try await second.submitPhone(Fixtures.phone).get()
        #expect(!again.termsRequired, "the person accepted the current terms")
        #expect(again.phoneToken != token)
    }

    @Test func aLaterInstanceWithTheSamePlanGoesOnWithWhatIsLeftOfIt() async throws {
        let store = InMemorySimulatorStateStore()
        let clock = TestClock()
        let plan: [SimulatedBackend.Endpoint: [SimulatedBackend.Fault]] = [.phone: [.unavailable(times: 2)]]
        let first = Fixtures.api(backend(store, clock: clock, faults: plan), clock: clock)
        #expect(try await first.submitPhone(Fixtures.phone).failure == .serverError(status: 503, retryAfter: 1))

        let second = Fixtures.api(backend(store, clock: clock, faults: plan), clock: clock)
        #expect(try await second.submitPhone(Fixtures.phone).failure == .serverError(status: 503, retryAfter: 1))
        let third = Fixtures.api(backend(store, clock: clock, faults: plan), clock: clock)
        #expect(try await third.submitPhone(Fixtures.phone).failure == nil, "the plan's two failures are spent")

        let otherPlan: [SimulatedBackend.Endpoint: [SimulatedBackend.Fault]] = [.phone: [.unavailable(times: 1)]]
        let other = Fixtures.api(backend(store, clock: clock, faults: otherPlan), clock: clock)
        #expect(
            try await other.submitPhone(Fixtures.phone).failure == .serverError(status: 503, retryAfter: 1),
            "another plan starts its own")
    }

    @Test func anotherPlanIsTheInstancesOwnButTheTermsItPublishedAreKept() async throws {
        let store = InMemorySimulatorStateStore()
        let clock = TestClock()
        let faulty = Fixtures.api(
            backend(
                store, clock: clock, faults: [.phone: [.termsChanged(times: 1)], .terms: [.unavailable(times: 5)]]),
            clock: clock)
        let session = try await faulty.submitPhone(Fixtures.phone).get()
        #expect(
            try await faulty.fetchTerms(phoneToken: session.phoneToken).failure
                == .serverError(status: 503, retryAfter: 1))

        let plain = Fixtures.api(backend(store, clock: clock), clock: clock)
        #expect(try await plain.fetchTerms(phoneToken: session.phoneToken).get().version == "2")
        let restarted = Fixtures.api(backend(store, clock: clock, termsVersion: "7"), clock: clock)
        #expect(
            try await restarted.fetchTerms(phoneToken: session.phoneToken).get().version == "7",
            "a configuration with other terms replaces the published ones")
    }

    @Test func aRequestThatChangesNothingWritesNothing() async throws {
        let store = CountingStore()
        let clock = TestClock()
        let api = Fixtures.api(backend(store, clock: clock), clock: clock)
        let session = try await api.submitPhone(Fixtures.phone).get()
        let afterSubmit = store.writes
        _ = try await api.fetchTerms(phoneToken: session.phoneToken).get()
        _ = try await api.fetchTerms(phoneToken: session.phoneToken).get()
        #expect(afterSubmit == 1)
        #expect(store.writes == afterSubmit)
    }

    @Test func whatCanNoLongerChangeAnAnswerIsNotKept() async throws {
        let store = InMemorySimulatorStateStore()
        let clock = TestClock()
        let api = Fixtures.api(backend(store, clock: clock), clock: clock)
        let token = try await api.readyForCode()
        _ = try await awaitCompletion { done in
            api.sendCode(phoneToken: token, call: call(.make()), completion: done)
        }
        let before = try #require(try JSONSerialization.jsonObject(with: store.bytes ?? Data()) as? [String: Any])
        #expect((before["codes"] as? [String: Any])?.count == 1)

        clock.advance(by: 3_600)
        _ = try await api.submitPhone(Fixtures.phone).get()
        let after = try #require(try JSONSerialization.jsonObject(with: store.bytes ?? Data()) as? [String: Any])
        #expect((after["codes"] as? [String: Any])?.isEmpty == true)
        #expect((after["keptAnswers"] as? [Any])?.isEmpty == true)
        #expect((after["acceptedByAttempt"] as? [String: Any])?.count == 0)
        #expect((after["acceptedByPerson"] as? [String: Any])?.count == 1, "a person's acceptance has no end")
    }

    @Test(arguments: [
        ("not json at all", "is damaged"),
        (#"{"format":"authsimulator.state","version":99}"#, "format version 99"),
        (#"{"format":"something else","version":1}"#, "is not the simulator's state"),
        (#"{"format":"authsimulator.state","version":1,"codes":7}"#, "is damaged"),
    ])
    func aStateThatCannotBeUsedIsReplacedAndToldOnce(bytes: String, reason: String) async throws {
        let store = InMemorySimulatorStateStore(bytes: Data(bytes.utf8))
        let clock = TestClock()
        let problems = LockedState<[SimulatorStateProblem]>([])
        let api = Fixtures.api(backend(store, clock: clock, problems: problems), clock: clock)
        let token = try await api.readyForCode()
        #expect(try await api.verifyCode("123456", phoneToken: token).failure == nil)

        let told = problems.withLock { $0 }
        #expect(told.count == 1, "\(told)")
        guard case .startedAfresh(let said) = told.first else { return #expect(Bool(false), "\(told)") }
        #expect(said.contains(reason), "\(said)")
        #expect(!said.contains("123456"))
        #expect(try StoredBytes(store).version == 1, "a fresh state was stored in its place")
    }

    @Test func anUnreadableStateIsReplacedAndToldOnce() async throws {
        let store = FailingStore(readError: SimulatorStateStoreError("cannot read state.json: Permission denied"))
        let clock = TestClock()
        let problems = LockedState<[SimulatorStateProblem]>([])
        let api = Fixtures.api(backend(store, clock: clock, problems: problems), clock: clock)
        _ = try await api.submitPhone(Fixtures.phone).get()
        store.readError = nil
        _ = try await api.submitPhone(Fixtures.phone).get()
        #expect(
            problems.withLock { $0 } == [
                .startedAfresh(reason: "could not be read (cannot read state.json: Permission denied)")
            ])
    }

    @Test func aStateThatCannotBeStoredIsA503ThatDidNothing() async throws {
        let store = FailingStore(
            writeError: SimulatorStateStoreError("cannot write state.json: No space left on device"))
        let clock = TestClock()
        let problems = LockedState<[SimulatorStateProblem]>([])
        let sms = LockedState(0)
        let backend = backend(store, clock: clock, problems: problems, sms: sms)
        let api = Fixtures.api(backend, clock: clock)
        #expect(try await api.submitPhone(Fixtures.phone).failure == .serverError(status: 503, retryAfter: 1))
        #expect(try await api.submitPhone(Fixtures.phone).failure == .serverError(status: 503, retryAfter: 1))
        #expect(problems.withLock { $0 }.count == 1, "told once")
        #expect(backend.requestCount(for: .phone) == 2, "the requests did arrive")

        store.writeError = nil
        let token = try await api.submitPhone(Fixtures.phone).get().phoneToken
        let accepted = try await api.acceptTerms(version: "1", phoneToken: token).get().phoneToken
        store.writeError = SimulatorStateStoreError("cannot write state.json: No space left on device")
        #expect(try await api.sendCode(phoneToken: accepted).failure == .serverError(status: 503, retryAfter: 1))
        #expect(sms.withLock { $0 } == 0, "an SMS the backend could not record is not sent")
        #expect(backend.sentSMS.isEmpty)
        #expect(backend.actionCount(for: .codeSend) == 0)
        #expect(backend.requestCount(for: .codeSend) == 1)
        store.writeError = nil
        #expect(
            try await api.verifyCode("123456", phoneToken: accepted).failure == .codeExpired,
            "no code is pending from the request that did nothing")
    }
}

/// A store that counts the writes it takes.
private final class CountingStore: SimulatorStateStore {
    private let state = LockedState<(bytes: Data?, writes: Int)>((nil, 0))

    var writes: Int { state.withLock { $0.writes } }

    func withExclusiveAccess(
        _ transaction: (Result<Data?, SimulatorStateStoreError>) -> Data?
    ) throws(SimulatorStateStoreError) {
        state.withLock { state in
            guard let bytes = transaction(.success(state.bytes)) else { return }
            state = (bytes, state.writes + 1)
        }
    }
}

/// A store whose reads or writes fail while told to, as a disk that refuses them.
private final class FailingStore: SimulatorStateStore {
    private let state: LockedState<(bytes: Data?, read: SimulatorStateStoreError?, write: SimulatorStateStoreError?)>

    init(readError: SimulatorStateStoreError? = nil, writeError: SimulatorStateStoreError? = nil) {
        state = LockedState((nil, readError, writeError))
    }

    var readError: SimulatorStateStoreError? {
        get { state.withLock { $0.read } }
        set { state.withLock { $0.read = newValue } }
    }

    var writeError: SimulatorStateStoreError? {
        get { state.withLock { $0.write } }
        set { state.withLock { $0.write = newValue } }
    }

    func withExclusiveAccess(
        _ transaction: (Result<Data?, SimulatorStateStoreError>) -> Data?
    ) throws(SimulatorStateStoreError) {
        try state.withLock { (state) throws(SimulatorStateStoreError) in
            let stored: Result<Data?, SimulatorStateStoreError> =
                state.read.map { .failure($0) } ?? .success(state.bytes)
            guard let bytes = transaction(stored) else { return }
            if let error = state.write { throw error }
            state.bytes = bytes
        }
    }
}

/// The format fields of a store's bytes.
private struct StoredBytes: Decodable {
    let format: String
    let version: Int

    init(_ store: InMemorySimulatorStateStore) throws {
        self = try JSONDecoder().decode(Self.self, from: store.bytes ?? Data())
    }
}
