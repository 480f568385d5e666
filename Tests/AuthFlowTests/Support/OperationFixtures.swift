import AuthFlow
import AuthFlowTesting
import Foundation
import Operations
import OperationsTesting
import Testing

/// Values and helpers for the operation and scenario tests.
extension Fixtures {
    static let phoneToken = PhoneToken("sim1.phone-token-for-tests.p1a2")
    static let acceptedPhoneToken = PhoneToken("sim1.accepted-phone-token.p3a4")
    static let authToken = AuthToken(
        "sim1.auth-token-for-tests.t5k6", expiresAt: Date(timeIntervalSince1970: 1_900_000_000))
    static let terms = TermsOfUse(version: "3", text: "Terms for tests.")
    static let delivery = CodeDelivery(resendAfter: 30, codeLength: 6)
    static let code: SMSCode = {
        (try? SMSCode("123456", length: 6)) ?? { preconditionFailure("fixture code") }()
    }()
    static let wrongCode: SMSCode = {
        (try? SMSCode("000000", length: 6)) ?? { preconditionFailure("fixture code") }()
    }()
    static let attempt = SignInAttempt(phone: phone, phoneToken: phoneToken, termsRequired: false, codeLength: 6)

    /// The errors every endpoint can meet whatever it is for: throttling, server and transport
    /// failures, and answers outside the contract.
    static let anyEndpointErrors: [AuthError] = [
        .rateLimited(retryAfter: 5), .serverError(status: 503),
        .malformedResponse(reason: "the body is not valid JSON"),
        .unreachable(reason: "connection refused"), .timeout, .unexpectedStatus(418, code: "teapot"),
    ]

    /// Fails the running test when a stub is called for a method it was not given.
    static let unexpectedCall: @Sendable (UnimplementedAuthAPI.Method) -> Void = { method in
        Issue.record("unexpected call of \(method)")
    }

    /// A factory over a stub API, recording storage and scripted screens; the retry policy is
    /// irrelevant to single operations.
    static func factory(
        api: StubAuthAPI, storage: RecordingLocalStorage = RecordingLocalStorage(), screens: ScriptedScreens
    )
        -> AuthFlowFactory
    {
        AuthFlowFactory(api: api, storage: storage, screens: screens, retry: .never)
    }
}

/// Checks the operation contract on a probed launch: one finish, no diagnostic but a dropped late
/// finish, the operation released.
func expectKeptContract<Output>(_ report: LaunchReport<Output>, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(report.finishCount == 1, "finished \(report.finishCount) times", sourceLocation: sourceLocation)
    #expect(report.released, "\(report.operation) was not released", sourceLocation: sourceLocation)
    #expect(report.keptContract, "diagnostics: \(report.diagnostics)", sourceLocation: sourceLocation)
}

/// A thread-safe counter for stub closures that answer differently call by call.
final class Counter: Sendable {
    private let value = LockedState(0)

    /// Counts one more and returns the new count, from 1.
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
