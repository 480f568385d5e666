public import Operations

/// The participants of the sign-in diagrams, as seeds/003 draws an operation: key services, and
/// the context services an operation creates and releases during a launch — the view models,
/// each handed ``AuthAPI`` at creation (a hard link) and bound to the router (a context link).
/// The screens themselves are the router's: the operation talks to the view model and the router.
extension Participant {
    /// The backend client, a key service.
    public static let authAPI = Participant.keyService("AuthAPI")
    /// The token store, a key service.
    public static let localStorage = Participant.keyService("LocalStorage")
    /// The router (``AuthScreens``), a key service: it binds a view model to a screen it shows,
    /// reports what the person did there, and dismisses the screen.
    public static let router = Participant.keyService("Router")
    /// The phone screen's view model, created by ``PhoneOp``.
    public static let phoneViewModel = Participant.contextService("PhoneViewModel")
    /// The terms screen's view model, created by ``TermsOfUseOp``.
    public static let termsViewModel = Participant.contextService("TermsViewModel")
    /// The code screen's view model, created by ``CodeOp``.
    public static let codeViewModel = Participant.contextService("CodeViewModel")
}

extension PhoneNumber: TraceLabelConvertible {
    /// Phone numbers are personal data, not secrets: shown with the middle digits hidden.
    public var traceLabel: String {
        let digits = e164
        guard digits.count > 8 else { return digits }
        return String(digits.prefix(4)) + "…" + String(digits.suffix(4))
    }
}

extension SignInAttempt: TraceLabelConvertible {
    /// The attempt is known by its (redacted) phone token.
    public var traceLabel: String { phoneToken.redacted }
}

extension VerificationRequest: TraceLabelConvertible {
    /// The attempt's phone token, redacted.
    public var traceLabel: String { attempt.phoneToken.redacted }
}

extension CodeRequest: TraceLabelConvertible {
    /// The request is known by its (redacted) phone token.
    public var traceLabel: String { attempt.phoneToken.redacted }
}

extension TermsAcceptance: TraceLabelConvertible {
    /// `v2`.
    public var traceLabel: String { "v\(acceptedVersion)" }
}

extension Result {
    /// A reply label: the value's trace label, or the error's description; `package` for the
    /// stateful operations of Examples/StatefulAuthFlow.
    package func replyLabel(_ success: (Success) -> String) -> String {
        switch self {
        case .success(let value): success(value)
        case .failure(let error): "error: \(error)"
        }
    }
}

extension AppOutcome: TraceLabelConvertible {
    /// `acceptedNewTerms(sim…a1f3)`.
    public var traceLabel: String {
        switch self {
        case .signedIn(let token): "signedIn(\(token.redacted))"
        case .acceptedNewTerms(let token): "acceptedNewTerms(\(token.redacted))"
        case .alreadySignedIn(let token): "alreadySignedIn(\(token.redacted))"
        }
    }
}
