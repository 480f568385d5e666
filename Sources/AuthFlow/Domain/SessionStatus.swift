/// What the backend says about a saved access token: whose it is and whether the terms of use
/// changed since they were accepted.
///
/// An app that starts with a saved token asks for this; when ``termsAcceptanceRequired`` is true
/// it shows the terms again using ``phoneToken`` — the same terms step as in sign-in.
public struct SessionStatus: Sendable, Hashable, Codable {
    /// The signed-in phone number.
    public let phone: PhoneNumber
    /// The terms version the backend currently requires.
    public let termsVersion: String
    /// The version this person accepted last, if any.
    public let acceptedTermsVersion: String?
    /// A phone token for accepting the current terms, present exactly when acceptance is required.
    public let phoneToken: PhoneToken?

    /// Creates a status from its values, each as its property says.
    public init(phone: PhoneNumber, termsVersion: String, acceptedTermsVersion: String?, phoneToken: PhoneToken?) {
        self.phone = phone
        self.termsVersion = termsVersion
        self.acceptedTermsVersion = acceptedTermsVersion
        self.phoneToken = phoneToken
    }

    /// Whether the current terms must be accepted before the app goes on.
    public var termsAcceptanceRequired: Bool { phoneToken != nil }
}
