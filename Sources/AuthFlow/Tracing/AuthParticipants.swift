public import Operations

/// The participants of the sign-in diagrams: key services, and the context services the
/// operations create and release during a launch. View models are immutable values handed to
/// the screens, so they appear in labels (`show(PhoneViewModel)`), not as lifelines.
extension Participant {
    /// The backend client, a key service.
    public static let authAPI = Participant.keyService("AuthAPI")
    /// The token store, a key service.
    public static let localStorage = Participant.keyService("LocalStorage")
    /// The phone screen, created by ``PhoneOp``.
    public static let phoneScreen = Participant.contextService("PhoneScreen")
    /// The terms screen, created by ``TermsOfUseOp``.
    public static let termsScreen = Participant.contextService("TermsScreen")
    /// The code screen, created by ``CodeOp``.
    public static let codeScreen = Participant.contextService("CodeScreen")
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
    /// stateful operations of Sources/StatefulAuthFlow.
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
