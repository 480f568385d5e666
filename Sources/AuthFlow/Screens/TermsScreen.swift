public import Operations

/// The screen that shows the terms of use: a context service of the terms step.
///
/// ## Contract
/// - ``show(_:_:)`` displays the model and later reports exactly one ``TermsScreenEvent``.
/// - Scrolling and reading stay inside the screen; only accepting or declining is reported.
/// - ``dismiss()`` removes the screen.
public protocol TermsScreen: Sendable {
    /// Displays a model and asks the person through `prompt`, answered once from any thread, as
    /// ``PhoneScreen/show(_:_:)`` says (`cannotBeAnswered(because:)` when nobody can answer now).
    func show(_ model: TermsViewModel, _ prompt: ScreenPrompt<TermsScreenEvent>)

    /// Removes the screen.
    func dismiss()
}

/// What the terms screen reports.
public enum TermsScreenEvent: Sendable, Hashable {
    /// The person accepted the terms shown.
    case accepted
    /// The person declined them, which ends sign-in.
    case declined
}

/// What the terms screen shows, and the one thing it can do: the terms step's context service,
/// created once the terms are fetched and bound as ``PhoneViewModel`` is, and like it dumb
/// and immutable: a change is a new model.
public struct TermsViewModel: Sendable, Hashable {
    /// The terms to show; acceptance names their version.
    public let terms: TermsOfUse
    /// Whether these terms replace ones the person accepted before (so the screen can say
    /// "the terms have changed").
    public let isUpdate: Bool
    /// A message about the last attempt (e.g. the terms changed while being read), or `nil`.
    public let errorMessage: String?
    /// The hard link: the backend the acceptance goes to.
    private let api: HardLink<any AuthAPI>

    /// Creates a model.
    ///
    /// - Parameters:
    ///   - api: The backend an acceptance is sent to (the model's hard link).
    ///   - terms: The terms.
    ///   - isUpdate: Whether they replace accepted ones.
    ///   - errorMessage: A message about the last attempt.
    public init(api: any AuthAPI, terms: TermsOfUse, isUpdate: Bool = false, errorMessage: String? = nil) {
        self.api = HardLink(service: api)
        self.terms = terms
        self.isUpdate = isUpdate
        self.errorMessage = errorMessage
    }

    /// The screen's title.
    public var title: String { isUpdate ? "The terms of use have changed" : "Terms of use" }

    /// The model for newer terms fetched after acceptance failed, with the error's sentence.
    ///
    /// - Parameters:
    ///   - error: Why accepting failed.
    ///   - terms: The terms now current.
    /// - Returns: A new model, handed the same backend.
    public func failed(with error: AuthError, terms: TermsOfUse) -> TermsViewModel {
        TermsViewModel(api: api.service, terms: terms, isUpdate: isUpdate, errorMessage: error.description)
    }

    /// Sends the acceptance of the terms shown, under the attempt `phoneToken` and with the
    /// request's call options (its idempotency key), to the backend the model was handed.
    func accept(
        phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<TermsAcceptance, AuthError>) -> Void
    ) {
        api.service.acceptTerms(version: terms.version, phoneToken: phoneToken, call: call, completion: completion)
    }
}
