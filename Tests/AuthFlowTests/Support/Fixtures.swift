import AuthFlow
import AuthSimulator
import Foundation

/// Shared values and small steps, so each test states only what it is about.
enum Fixtures {
    static let phone: PhoneNumber = {
        // A literal known to parse; a failure here would fail every test that uses it, loudly.
        (try? PhoneNumber(parsing: "+7 999 123-45-67")) ?? { preconditionFailure("fixture phone") }()
    }()

    static func backend(
        clock: TestClock = TestClock(), termsRequired: Bool = true, termsVersion: String = "1",
        faults: [SimulatedBackend.Endpoint: [SimulatedBackend.Fault]] = [:], instanceID: UInt64 = 1
    ) -> SimulatedBackend {
        var configuration = SimulatedBackend.Configuration(
            smsCode: "123456", termsRequired: termsRequired, termsVersion: termsVersion, faults: faults)
        configuration.clock = clock.function
        configuration.instanceID = instanceID
        return SimulatedBackend(configuration: configuration)
    }

    static func api(_ transport: any HTTPTransport, clock: TestClock = TestClock(), timeout: Duration = .seconds(5))
        -> HTTPAuthAPI
    {
        HTTPAuthAPI(transport: transport, timeout: timeout, now: clock.function)
    }
}

extension AuthAPI {
    func submitPhone(_ phone: PhoneNumber) async throws -> Result<PhoneSession, AuthError> {
        try await awaitCompletion { done in submitPhone(phone, call: AuthCall(), completion: done) }
    }

    func fetchTerms(phoneToken: PhoneToken) async throws -> Result<TermsOfUse, AuthError> {
        try await awaitCompletion { done in fetchTerms(phoneToken: phoneToken, call: AuthCall(), completion: done) }
    }

    func acceptTerms(version: String, phoneToken: PhoneToken) async throws -> Result<TermsAcceptance, AuthError> {
        try await awaitCompletion { done in
            acceptTerms(version: version, phoneToken: phoneToken, call: AuthCall(), completion: done)
        }
    }

    func sendCode(phoneToken: PhoneToken) async throws -> Result<CodeDelivery, AuthError> {
        try await awaitCompletion { done in sendCode(phoneToken: phoneToken, call: AuthCall(), completion: done) }
    }

    func verifyCode(_ code: String, phoneToken: PhoneToken) async throws -> Result<AuthToken, AuthError> {
        let code = try SMSCode(code, length: code.count)
        return try await awaitCompletion { done in
            verifyCode(code, phoneToken: phoneToken, call: AuthCall(), completion: done)
        }
    }

    func fetchSession(authToken: AuthToken) async throws -> Result<SessionStatus, AuthError> {
        try await awaitCompletion { done in fetchSession(authToken: authToken, call: AuthCall(), completion: done) }
    }

    /// Revokes the token; `nil` on success, the error otherwise (`Result<Void, _>` is not
    /// `Equatable`, so tests compare this instead).
    func signOut(authToken: AuthToken) async throws -> AuthError? {
        let result: Result<Void, AuthError> = try await awaitCompletion { done in
            signOut(authToken: authToken, call: AuthCall(), completion: done)
        }
        if case .failure(let error) = result { return error }
        return nil
    }

    /// Phone, terms accepted, code sent: the phone token ready for verification.
    func readyForCode(_ phone: PhoneNumber = Fixtures.phone) async throws -> PhoneToken {
        let session = try await submitPhone(phone).get()
        var token = session.phoneToken
        if session.termsRequired {
            let terms = try await fetchTerms(phoneToken: token).get()
            token = try await acceptTerms(version: terms.version, phoneToken: token).get().phoneToken
        }
        _ = try await sendCode(phoneToken: token).get()
        return token
    }
}
