public import Operations

/// The screen that shows the terms of use: a context service of the terms step.
///
/// ## Contract
/// - ``show(_:_:)`` displays the model and later reports exactly one ``TermsScreenEvent``.
/// - Scrolling and reading stay inside the screen; only accepting or declining is reported.
/// - ``dismiss()`` removes the screen.
public protocol TermsScreen: Sendable {
    /// Displays a model and asks the person through `prompt`, the package's one way to ask a
    /// person (`ScreenPrompt`).
    ///
    /// Answer the prompt once with what the person did. When nobody can answer now (no terminal
    /// and no input given, the app in the background), call
    /// `prompt.cannotBeAnswered(because:)`: the launch ends cancelled and the run can be rerun
    /// with the input. The prompt closes itself when the launch is cancelled.
    ///
    /// - Parameters:
    ///   - model: What to show.
    ///   - prompt: Answered once, from any thread.
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

/// What the terms screen shows. Immutable: a change makes a new value.
public struct TermsViewModel: Sendable, Hashable {
    /// The terms to show; acceptance names their version.
    public let terms: TermsOfUse
    /// Whether these terms replace ones the person accepted before (so the screen can say
    /// "the terms have changed").
    public let isUpdate: Bool
    /// A message about the last attempt (e.g. the terms changed while being read), or `nil`.
    public let errorMessage: String?

    /// Creates a model.
    ///
    /// - Parameters:
    ///   - terms: The terms.
    ///   - isUpdate: Whether they replace accepted ones.
    ///   - errorMessage: A message about the last attempt.
    public init(terms: TermsOfUse, isUpdate: Bool = false, errorMessage: String? = nil) {
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
    /// - Returns: A new model.
    public func failed(with error: AuthError, terms: TermsOfUse) -> TermsViewModel {
        TermsViewModel(terms: terms, isUpdate: isUpdate, errorMessage: error.description)
    }
}
