/// What ``VerificationScenario`` is launched with: the sign-in attempt, and whether its phone
/// token must be renewed first (it expired, so the phone screen comes back with the number).
///
/// A value, like every input: ``AuthScenario`` relaunches the verification with a new one after
/// the backend said the terms changed or the phone token expired, and the journal records it.
public struct VerificationRequest: Sendable, Hashable, Codable {
    /// The attempt to verify.
    public let attempt: SignInAttempt
    /// Whether the attempt's phone token expired and the number is to be submitted again.
    public let renewsPhoneToken: Bool

    /// Creates a request.
    public init(attempt: SignInAttempt, renewsPhoneToken: Bool = false) {
        self.attempt = attempt
        self.renewsPhoneToken = renewsPhoneToken
    }

    /// The number the phone screen is prefilled with when the token is renewed.
    public var prefill: PhoneNumber? { attempt.phone }

    /// The request after the phone screen answered again: the new attempt, nothing to renew.
    ///
    /// - Parameter renewed: What PhoneOp answered.
    /// - Returns: A request for the renewed attempt.
    public func renewed(with renewed: SignInAttempt) -> VerificationRequest {
        VerificationRequest(attempt: renewed)
    }

    /// The request after the terms were accepted: the acceptance's phone token.
    ///
    /// - Parameter acceptance: What accepting the terms answered.
    /// - Returns: A request for the attempt with the terms accepted.
    public func accepting(_ acceptance: TermsAcceptance) -> VerificationRequest {
        VerificationRequest(attempt: attempt.accepting(acceptance), renewsPhoneToken: renewsPhoneToken)
    }
}
