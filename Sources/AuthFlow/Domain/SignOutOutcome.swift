/// What ``SignOutOp`` found and did, so a caller can tell a person whether anything changed:
/// signing out twice is not an error, but saying "Signed out." the second time would be untrue.
public enum SignOutOutcome: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A saved token was revoked on the backend (or the backend no longer accepted it) and then
    /// deleted from ``LocalStorage``.
    case signedOut
    /// No token was saved: nothing was sent and nothing deleted.
    case notSignedIn

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        switch self {
        case .signedOut: "signed out"
        case .notSignedIn: "not signed in"
        }
    }
}
