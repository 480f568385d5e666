/// What the backend answers to a submitted phone number: the sign-in attempt's token and what
/// the next steps need.
public struct PhoneSession: Sendable, Hashable, Codable {
    /// The bearer for the terms and code steps of this attempt.
    public let phoneToken: PhoneToken
    /// Whether the terms of use must be accepted before a code can be sent.
    public let termsRequired: Bool
    /// How many digits the SMS code will have.
    public let codeLength: Int

    /// Creates a phone session.
    public init(phoneToken: PhoneToken, termsRequired: Bool, codeLength: Int) {
        self.phoneToken = phoneToken
        self.termsRequired = termsRequired
        self.codeLength = codeLength
    }
}
