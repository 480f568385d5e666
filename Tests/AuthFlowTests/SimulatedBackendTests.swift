import AuthFlow
import AuthSimulator
import Foundation
import Operations
import Testing

struct SimulatedBackendTests {
    @Test func endpointNamesMatchTheConfigurationVocabulary() {
        #expect(
            SimulatedBackend.Endpoint.allCases.map(\.rawValue) == [
                "phone", "terms", "terms.accept", "code.send", "code.verify", "session", "sign-out",
            ])
        #expect(SimulatedBackend.Endpoint(rawValue: "code.send") == .codeSend)
    }

    @Test func countersAreExactUnderConcurrentLoad() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let successes = LockedState(0)
        let count = 200
        let request: @Sendable (@escaping @Sendable (Int) -> Void) -> Void = { done in
            DispatchQueue.concurrentPerform(iterations: count) { _ in
                api.submitPhone(Fixtures.phone, call: AuthCall()) { result in
                    let finished = successes.withLock { value -> Int? in
                        if case .success = result { value += 1 }
                        return value == count ? value : nil
                    }
                    if let finished { done(finished) }
                }
            }
        }
        #expect(try await awaitCompletion(request) == count)
        #expect(backend.requestCount(for: .phone) == count)
    }

    @Test func zeroTimesFaultsAreIgnored() async throws {
        let backend = Fixtures.backend(faults: [.phone: [.hang(times: 0), .unavailable(times: 1)]])
        let api = Fixtures.api(backend)
        #expect(try await api.submitPhone(Fixtures.phone) == .failure(.serverError(status: 503, retryAfter: 1)))
        _ = try await api.submitPhone(Fixtures.phone).get()
    }

    @Test func removingFaultsRestoresNormalAnswers() async throws {
        let backend = Fixtures.backend(faults: [.phone: [.unavailable(times: 5)]])
        backend.removeAllFaults()
        _ = try await Fixtures.api(backend).submitPhone(Fixtures.phone).get()
    }

    @Test func termsArePerPerson() async throws {
        let backend = Fixtures.backend()
        let api = Fixtures.api(backend)
        let other = try PhoneNumber(parsing: "+7 999 000-11-22")
        let first = try await api.submitPhone(Fixtures.phone).get()
        #expect(first.termsRequired)
        let terms = try await api.fetchTerms(phoneToken: first.phoneToken).get()
        _ = try await api.acceptTerms(version: terms.version, phoneToken: first.phoneToken).get()

        // The same person is not asked again, and can have a code sent at once.
        let again = try await api.submitPhone(Fixtures.phone).get()
        #expect(!again.termsRequired)
        _ = try await api.sendCode(phoneToken: again.phoneToken).get()

        // Another number is asked, and refused a code until it accepts.
        let stranger = try await api.submitPhone(other).get()
        #expect(stranger.termsRequired)
        guard case .failure(.termsOutdated) = try await api.sendCode(phoneToken: stranger.phoneToken) else {
            Issue.record("a code was sent to a number that never accepted the terms")
            return
        }
    }
}
