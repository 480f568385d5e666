public import AuthFlow
public import Foundation

/// An SMS the simulated backend "sent": to whom, which code and when.
///
/// The code is a secret like any other: printing this value shows it redacted. A CLI that must
/// show it to the person signing in reads `code.revealed` deliberately.
public struct SimulatedSMS: Sendable, Hashable, CustomStringConvertible {
    /// The recipient.
    public let phone: PhoneNumber
    /// The code in the message.
    public let code: SMSCode
    /// When it was sent, by the simulator's clock.
    public let sentAt: Date

    /// Creates a record of a sent SMS.
    public init(phone: PhoneNumber, code: SMSCode, sentAt: Date) {
        self.phone = phone
        self.code = code
        self.sentAt = sentAt
    }

    /// `SMS to +79991234567: ••••••`.
    public var description: String { "SMS to \(phone): \(code)" }
}
