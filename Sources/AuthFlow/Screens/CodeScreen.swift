public import Foundation
public import Operations

/// The screen where a person enters the SMS code: a context service of the code step.
///
/// ## Contract
/// - ``show(_:_:)`` displays the model and later reports exactly one ``CodeScreenEvent``.
/// - The screen validates input with ``SMSCode/init(_:length:)`` using the model's
///   ``CodeViewModel/codeLength`` and reports only a code that validated.
/// - ``dismiss()`` removes the screen.
public protocol CodeScreen: Sendable {
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
    func show(_ model: CodeViewModel, _ prompt: ScreenPrompt<CodeScreenEvent>)

    /// Removes the screen.
    func dismiss()
}

/// What the code screen reports.
public enum CodeScreenEvent: Sendable, Hashable {
    /// A code of the announced length was entered.
    case submitted(SMSCode)
    /// The person asked for another SMS.
    case resendRequested
    /// The person gave up signing in.
    case cancelled
}

/// What the code screen shows. Immutable: a change makes a new value.
public struct CodeViewModel: Sendable, Hashable {
    /// Where the code was sent.
    public let phone: PhoneNumber
    /// How many digits the code has.
    public let codeLength: Int
    /// Tries left before the number is locked, once the backend has said.
    public let attemptsLeft: Int?
    /// Seconds until another code may be requested, as the backend said when sending.
    public let resendAfter: TimeInterval?
    /// A message about the last attempt (a wrong code), or `nil`.
    public let errorMessage: String?

    /// Creates a model.
    ///
    /// - Parameters:
    ///   - phone: Where the code was sent.
    ///   - codeLength: The code's length.
    ///   - attemptsLeft: Tries left, when known.
    ///   - resendAfter: Seconds until a resend is allowed.
    ///   - errorMessage: A message about the last attempt.
    public init(
        phone: PhoneNumber, codeLength: Int, attemptsLeft: Int? = nil, resendAfter: TimeInterval? = nil,
        errorMessage: String? = nil
    ) {
        self.phone = phone
        self.codeLength = codeLength
        self.attemptsLeft = attemptsLeft
        self.resendAfter = resendAfter
        self.errorMessage = errorMessage
    }

    /// The prompt: `Enter the 6-digit code sent to +79991234567`.
    public var prompt: String { "Enter the \(codeLength)-digit code sent to \(phone)" }

    /// The model after a failed verification: the error's sentence, and the attempts left when the
    /// error says.
    ///
    /// - Parameter error: Why verification failed.
    /// - Returns: A new model.
    public func failed(with error: AuthError) -> CodeViewModel {
        var attemptsLeft = self.attemptsLeft
        if case .invalidCode(let left) = error { attemptsLeft = left }
        return CodeViewModel(
            phone: phone, codeLength: codeLength, attemptsLeft: attemptsLeft, resendAfter: resendAfter,
            errorMessage: error.description)
    }

    /// The model after a new code was sent: the message cleared, the new length and resend delay.
    ///
    /// - Parameter delivery: The backend's answer to the resend.
    /// - Returns: A new model.
    public func resent(_ delivery: CodeDelivery) -> CodeViewModel {
        CodeViewModel(
            phone: phone, codeLength: delivery.codeLength, attemptsLeft: attemptsLeft,
            resendAfter: delivery.resendAfter, errorMessage: nil)
    }
}
