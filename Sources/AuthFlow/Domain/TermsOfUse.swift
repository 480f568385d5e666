/// The terms of use a person must accept before the backend sends a code.
public struct TermsOfUse: Sendable, Hashable, Codable {
    /// The backend's identifier of this text; acceptance names it, so accepting a text the person
    /// never saw fails with ``AuthError/termsOutdated(currentVersion:)``.
    public let version: String
    /// The text to show.
    public let text: String

    /// Creates terms.
    public init(version: String, text: String) {
        self.version = version
        self.text = text
    }
}
