/// The backend's receipt for accepted terms.
///
/// The backend answers with a new phone token that carries the acceptance, so the next step works
/// even against a server instance (or a simulator in a later process) that never saw the
/// acceptance. Pass ``phoneToken`` on instead of the one used to accept.
public struct TermsAcceptance: Sendable, Hashable, Codable {
    /// The version that was accepted.
    public let acceptedVersion: String
    /// The phone token to use from now on in this attempt.
    public let phoneToken: PhoneToken
    /// A fresh access token recording the acceptance, present only when the phone token came from
    /// ``AuthAPI/fetchSession(authToken:call:completion:)`` (re-acceptance by a signed-in person). Save
    /// it in place of the old one.
    public let authToken: AuthToken?

    /// Creates a receipt from its values, each as its property says.
    public init(acceptedVersion: String, phoneToken: PhoneToken, authToken: AuthToken? = nil) {
        self.acceptedVersion = acceptedVersion
        self.phoneToken = phoneToken
        self.authToken = authToken
    }
}
