import Foundation

/// What ``AppScenario`` learns about the saved sign-in before it decides, passed by value from
/// step to step and concluded by the step that acts on it.
public struct SessionCheck: Sendable, Hashable, Codable {
    /// Where the user stands.
    public enum Standing: Sendable, Hashable, Codable {
        /// No usable saved token: sign in.
        case signedOut
        /// A valid token, but the terms changed: accept them again with this phone token.
        case termsChanged(phoneToken: PhoneToken, version: String)
        /// A valid token and accepted terms.
        case signedIn
    }

    /// The user stopped short of signing in where the scenario does not sign in.
    public struct NotSignedIn: Error, Sendable, CustomStringConvertible {
        /// Creates the error.
        public init() {}

        public var description: String { "there is no saved sign-in; sign in first ('opctl run auth')" }
    }

    /// The phone number to prefill a sign-in with.
    public let phone: PhoneNumber?
    /// The token found in storage, if any.
    public let saved: AuthToken?
    /// Where the user stands.
    public let standing: Standing
    /// What the scenario concluded, once a step acted.
    public let conclusion: AppOutcome?

    /// Creates a check.
    public init(phone: PhoneNumber?, saved: AuthToken?, standing: Standing, conclusion: AppOutcome? = nil) {
        self.phone = phone
        self.saved = saved
        self.standing = standing
        self.conclusion = conclusion
    }

    /// The check with the step's conclusion.
    func concluding(_ outcome: AppOutcome) -> SessionCheck {
        SessionCheck(phone: phone, saved: saved, standing: standing, conclusion: outcome)
    }

    /// Whether nobody is signed in: the app signs in first.
    var isSignedOut: Bool { standing == .signedOut }

    var termsChanged: Bool {
        if case .termsChanged = standing, conclusion == nil { return true }
        return false
    }

    /// The phone token for accepting the changed terms.
    var reacceptanceToken: PhoneToken {
        if case .termsChanged(let token, _) = standing { return token }
        return PhoneToken("")
    }

    var savedToken: AuthToken { saved ?? AuthToken("", expiresAt: .distantPast) }

    var acceptedNewTerms: Bool {
        if case .acceptedNewTerms = conclusion { return true }
        return false
    }

    var concludedToken: AuthToken { conclusion?.token ?? savedToken }

    /// The scenario's result: the conclusion, or "already signed in" when nothing had to act.
    func outcome() throws -> AppOutcome {
        if let conclusion { return conclusion }
        guard standing == .signedIn, let saved else { throw NotSignedIn() }
        return .alreadySignedIn(saved)
    }
}
