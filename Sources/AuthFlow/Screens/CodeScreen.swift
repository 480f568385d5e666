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
    /// Displays a model and asks the person through `prompt`, answered once from any thread, as
    /// ``PhoneScreen/show(_:_:)`` says (`cannotBeAnswered(because:)` when nobody can answer now).
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

/// What the code screen shows, and the one thing it can do: the code step's context service,
/// created and bound as ``PhoneViewModel`` is, and like it dumb and immutable: a change (a new
/// code sent) is a new model, and keys and re-asks are the operation's.
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
    /// The hard link: the backend the entered code goes to.
    private let api: HardLink<any AuthAPI>

    /// Creates a model.
    ///
    /// - Parameters:
    ///   - api: The backend an entered code is sent to (the model's hard link).
    ///   - phone: Where the code was sent.
    ///   - codeLength: The code's length.
    ///   - attemptsLeft: Tries left, when known.
    ///   - resendAfter: Seconds until a resend is allowed.
    ///   - errorMessage: A message about the last attempt.
    public init(
        api: any AuthAPI, phone: PhoneNumber, codeLength: Int, attemptsLeft: Int? = nil,
        resendAfter: TimeInterval? = nil, errorMessage: String? = nil
    ) {
        self.api = HardLink(service: api)
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
    /// - Returns: A new model, handed the same backend.
    public func failed(with error: AuthError) -> CodeViewModel {
        var attemptsLeft = self.attemptsLeft
        if case .invalidCode(let left) = error { attemptsLeft = left }
        return CodeViewModel(
            api: api.service, phone: phone, codeLength: codeLength, attemptsLeft: attemptsLeft,
            resendAfter: resendAfter,
            errorMessage: error.description)
    }

    /// The model after a new code was sent: the message cleared, the new length and resend delay.
    ///
    /// - Parameter delivery: The backend's answer to the resend.
    /// - Returns: A new model, handed the same backend.
    public func resent(_ delivery: CodeDelivery) -> CodeViewModel {
        CodeViewModel(
            api: api.service, phone: phone, codeLength: delivery.codeLength, attemptsLeft: attemptsLeft,
            resendAfter: delivery.resendAfter, errorMessage: nil)
    }

    /// Sends an entered code for the attempt `phoneToken`, with the request's call options (the
    /// verification's key), to the backend the model was handed.
    func verify(
        _ code: SMSCode, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<AuthToken, AuthError>) -> Void
    ) {
        api.service.verifyCode(code, phoneToken: phoneToken, call: call, completion: completion)
    }
}
