import AuthFlow
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
                api.submitPhone(Fixtures.phone) { result in
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
        #expect(try await api.submitPhone(Fixtures.phone) == .failure(.serverError(status: 503)))
        _ = try await api.submitPhone(Fixtures.phone).get()
    }

    @Test func removingFaultsRestoresNormalAnswers() async throws {
        let backend = Fixtures.backend(faults: [.phone: [.unavailable(times: 5)]])
        backend.removeAllFaults()
        _ = try await Fixtures.api(backend).submitPhone(Fixtures.phone).get()
    }
}
