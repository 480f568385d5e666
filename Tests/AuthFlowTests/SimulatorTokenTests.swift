import AuthFlow
import AuthSimulator
import Foundation
import Testing

/// A rerun happens in a new process; a second simulator instance with the same key stands in for it.
struct SimulatorTokenTests {
    @Test func aLaterInstanceAcceptsEarlierTokens() async throws {
        let clock = TestClock()
        let first = Fixtures.api(Fixtures.backend(clock: clock, instanceID: 1), clock: clock)
        let session = try await first.submitPhone(Fixtures.phone).get()
        let accepted = try await first.acceptTerms(version: "1", phoneToken: session.phoneToken).get()

        // The second instance never saw the acceptance: the token carries it.
        let secondBackend = Fixtures.backend(clock: clock, instanceID: 2)
        let second = Fixtures.api(secondBackend, clock: clock)
        _ = try await second.fetchTerms(phoneToken: session.phoneToken).get()
        _ = try await second.sendCode(phoneToken: accepted.phoneToken).get()
        let token = try await second.verifyCode("123456", phoneToken: accepted.phoneToken).get()

        let third = Fixtures.api(Fixtures.backend(clock: clock, instanceID: 3), clock: clock)
        let status = try await third.fetchSession(authToken: token).get()
        #expect(status.phone == Fixtures.phone)
        #expect(!status.termsAcceptanceRequired)
    }

    @Test func theOriginalPhoneTokenDoesNotCarryTheAcceptance() async throws {
        let first = Fixtures.api(Fixtures.backend(instanceID: 1))
        let session = try await first.submitPhone(Fixtures.phone).get()
        _ = try await first.acceptTerms(version: "1", phoneToken: session.phoneToken).get()
        let second = Fixtures.api(Fixtures.backend(instanceID: 2))
        #expect(
            try await second.sendCode(phoneToken: session.phoneToken) == .failure(.termsOutdated(currentVersion: "1")))
    }

    @Test func aLaterInstanceWithNewTermsAsksAgain() async throws {
        let first = Fixtures.api(Fixtures.backend(instanceID: 1))
        let token = try await first.verifyCode("123456", phoneToken: try await first.readyForCode()).get()
        let second = Fixtures.api(Fixtures.backend(termsVersion: "2", instanceID: 2))
        let status = try await second.fetchSession(authToken: token).get()
        #expect(status.termsVersion == "2")
        #expect(status.acceptedTermsVersion == "1")
        #expect(status.termsAcceptanceRequired)
    }

    @Test func expiredTamperedAndForeignTokensAreRejected() async throws {
        let clock = TestClock()
        let first = Fixtures.api(Fixtures.backend(clock: clock, instanceID: 1), clock: clock)
        let token = try await first.verifyCode("123456", phoneToken: try await first.readyForCode()).get()
        let later = Fixtures.api(Fixtures.backend(clock: clock, instanceID: 2), clock: clock)

        // Change one character of the claims: the signature no longer matches.
        var parts = token.revealed.split(separator: ".").map(String.init)
        parts[1] = String(parts[1].dropLast()) + (parts[1].hasSuffix("A") ? "B" : "A")
        let tampered = AuthToken(parts.joined(separator: "."), expiresAt: token.expiresAt)
        #expect(try await later.fetchSession(authToken: tampered) == .failure(.unauthorized))

        var foreignConfiguration = SimulatedBackend.Configuration()
        foreignConfiguration.signingKey = Array("another key".utf8)
        foreignConfiguration.clock = clock.function
        let foreign = Fixtures.api(SimulatedBackend(configuration: foreignConfiguration), clock: clock)
        #expect(try await foreign.fetchSession(authToken: token) == .failure(.unauthorized))

        clock.advance(by: 30 * 24 * 3600)
        #expect(try await later.fetchSession(authToken: token) == .failure(.unauthorized))
    }

    @Test func tokensFromDifferentInstancesDiffer() async throws {
        let first = try await Fixtures.api(Fixtures.backend(instanceID: 1)).submitPhone(Fixtures.phone).get()
        let second = try await Fixtures.api(Fixtures.backend(instanceID: 2)).submitPhone(Fixtures.phone).get()
        #expect(first.phoneToken != second.phoneToken)
    }
}
