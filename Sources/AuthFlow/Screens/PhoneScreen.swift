public import Operations

/// The screen where a person enters a phone number: a context service of the phone step.
///
/// ## Contract
/// - ``show(_:_:)`` displays the model (replacing what was shown) and later reports exactly
///   one ``PhoneScreenEvent``: the person submitted a valid number, or gave up.
/// - Typing, validation messages and other noise stay inside the screen: it parses input with
///   ``PhoneNumber/init(parsing:convention:)`` and reports only a number that parsed.
/// - ``dismiss()`` removes the screen; the step calls it when it is done with the screen.
public protocol PhoneScreen: Sendable {
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
    func show(_ model: PhoneViewModel, _ prompt: ScreenPrompt<PhoneScreenEvent>)

    /// Removes the screen.
    func dismiss()
}

/// What the phone screen reports.
public enum PhoneScreenEvent: Sendable, Hashable {
    /// A valid number was submitted.
    case submitted(PhoneNumber)
    /// The person gave up signing in.
    case cancelled
}

/// What the phone screen shows. Immutable: a change makes a new value.
public struct PhoneViewModel: Sendable, Hashable {
    /// The screen's title.
    public let title: String
    /// Text to prefill the field with, e.g. the number entered last time.
    public let input: String
    /// A message about the last attempt (the backend rejected the number), or `nil`.
    public let errorMessage: String?

    /// Creates a model.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - input: The prefilled text.
    ///   - errorMessage: A message about the last attempt.
    public init(title: String = "Sign in with your phone number", input: String = "", errorMessage: String? = nil) {
        self.title = title
        self.input = input
        self.errorMessage = errorMessage
    }

    /// The model shown again after a failure: the number kept, the error's sentence shown.
    ///
    /// - Parameters:
    ///   - error: Why the last attempt failed.
    ///   - phone: The number that was submitted.
    /// - Returns: A new model.
    public func failed(with error: AuthError, phone: PhoneNumber) -> PhoneViewModel {
        PhoneViewModel(title: title, input: phone.e164, errorMessage: error.description)
    }
}
