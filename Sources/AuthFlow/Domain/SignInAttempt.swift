public import Operations

/// A sign-in in progress, passed by value from step to step of ``AuthScenario``: the phone and
/// what the backend answered to it.
public struct SignInAttempt: Sendable, Hashable, Codable {
    /// The phone number being signed in.
    public let phone: PhoneNumber
    /// The bearer for the terms and code steps; replaced when the terms are accepted.
    public let phoneToken: PhoneToken
    /// Whether the terms must be accepted before a code can be sent.
    public let termsRequired: Bool
    /// How many digits the SMS code has.
    public let codeLength: Int

    /// Creates an attempt.
    public init(phone: PhoneNumber, phoneToken: PhoneToken, termsRequired: Bool, codeLength: Int) {
        self.phone = phone
        self.phoneToken = phoneToken
        self.termsRequired = termsRequired
        self.codeLength = codeLength
    }

    /// The attempt after the terms were accepted: the new token carries the acceptance.
    ///
    /// - Parameter acceptance: What accepting the terms answered.
    /// - Returns: The attempt with the acceptance's phone token, no terms required.
    public func accepting(_ acceptance: TermsAcceptance) -> SignInAttempt {
        SignInAttempt(phone: phone, phoneToken: acceptance.phoneToken, termsRequired: false, codeLength: codeLength)
    }

    /// The attempt after the backend said its terms are not (or no longer) accepted: the terms
    /// are to be fetched and shown again.
    public func requiringTerms() -> SignInAttempt {
        SignInAttempt(phone: phone, phoneToken: phoneToken, termsRequired: true, codeLength: codeLength)
    }
}

/// What ``CodeOp`` is launched with: the attempt, and whether this launch sends the SMS or asks
/// again for a code already sent (after a wrong one).
public struct CodeRequest: Sendable, Hashable, Codable {
    /// The sign-in attempt.
    public let attempt: SignInAttempt
    /// Whether to ask the backend to send the SMS before asking for the code.
    public let sendsCode: Bool
    /// Why the screen asks again, shown above the prompt.
    public let notice: String?
    /// Attempts the backend still allows, when it said.
    public let attemptsLeft: Int?

    /// Creates a request.
    public init(attempt: SignInAttempt, sendsCode: Bool = true, notice: String? = nil, attemptsLeft: Int? = nil) {
        self.attempt = attempt
        self.sendsCode = sendsCode
        self.notice = notice
        self.attemptsLeft = attemptsLeft
    }

    /// The same request without its notice: for an ask that starts afresh (a rerun), where the
    /// reason of an earlier attempt would mislead.
    public var withoutNotice: CodeRequest {
        CodeRequest(attempt: attempt, sendsCode: sendsCode, notice: nil, attemptsLeft: attemptsLeft)
    }
}

/// The user stopped the sign-in: closed a screen or declined the terms. The engine treats it as a
/// cancellation — it is never retried and the run ends as cancelled.
public enum SignInCancelled: CancellationReason, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The phone screen was closed.
    case phoneScreenClosed
    /// The terms were declined.
    case termsDeclined
    /// The code screen was closed.
    case codeScreenClosed

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        switch self {
        case .phoneScreenClosed: "the phone number was not entered"
        case .termsDeclined: "the terms of use were declined"
        case .codeScreenClosed: "the SMS code was not entered"
        }
    }
}
