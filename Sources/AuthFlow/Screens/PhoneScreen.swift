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

/// What the phone screen shows, and the one thing it can do: a context service of the phone
/// step (seeds/003), created by the operation for each showing and bound to a screen by the
/// router (``AuthScreens``).
///
/// Dumb and immutable: it holds what the screen shows and the key service it was handed at
/// creation (its hard link, ``AuthAPI``), keeps no state and decides nothing — a change (a
/// rejected number shown again) is a new model, and retries and re-asks are the operation's.
/// Two models are equal when they show the same; the service they were handed is not part of
/// what they show.
public struct PhoneViewModel: Sendable, Hashable {
    /// The screen's title.
    public let title: String
    /// Text to prefill the field with, e.g. the number entered last time.
    public let input: String
    /// A message about the last attempt (the backend rejected the number), or `nil`.
    public let errorMessage: String?
    /// The hard link: the backend the submitted number goes to.
    private let api: HardLink<any AuthAPI>

    /// Creates a model.
    ///
    /// - Parameters:
    ///   - api: The backend a submitted number is sent to (the model's hard link).
    ///   - title: The title.
    ///   - input: The prefilled text.
    ///   - errorMessage: A message about the last attempt.
    public init(
        api: any AuthAPI, title: String = "Sign in with your phone number", input: String = "",
        errorMessage: String? = nil
    ) {
        self.api = HardLink(service: api)
        self.title = title
        self.input = input
        self.errorMessage = errorMessage
    }

    /// The model shown again after a failure: the number kept, the error's sentence shown, the
    /// same backend handed on.
    ///
    /// - Parameters:
    ///   - error: Why the last attempt failed.
    ///   - phone: The number that was submitted.
    /// - Returns: A new model.
    public func failed(with error: AuthError, phone: PhoneNumber) -> PhoneViewModel {
        PhoneViewModel(api: api.service, title: title, input: phone.e164, errorMessage: error.description)
    }

    /// Sends a submitted number to the backend the model was handed: one request, whose retry
    /// is the operation's decision.
    func submit(
        _ phone: PhoneNumber, call: AuthCall, completion: @escaping @Sendable (Result<PhoneSession, AuthError>) -> Void
    ) {
        api.service.submitPhone(phone, call: call, completion: completion)
    }
}
