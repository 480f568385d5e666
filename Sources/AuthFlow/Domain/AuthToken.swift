public import Foundation
public import Operations
public import OperationsJournal

/// The access token a successful sign-in produces, and when it stops being valid.
///
/// A secret. Every printed form (`description`, interpolation, `debugDescription`, `dump`) shows
/// only ``redacted``; the clear value is available only as ``revealed``. A run's journal never
/// keeps it in clear (`JournalConfidential`): without a sealer it is withheld, and a rerun asks
/// the backend for it again with the key of the verification that produced it.
public struct AuthToken: Sendable, Hashable, Codable, Redactable, JournalConfidential {
    /// The clear token, for the `Authorization` header and for storage. Never print or log it.
    public let revealed: String
    /// The moment the backend stops accepting the token.
    public let expiresAt: Date

    /// Wraps a token received from the backend.
    public init(_ revealed: String, expiresAt: Date) {
        self.revealed = revealed
        self.expiresAt = expiresAt
    }

    private enum CodingKeys: String, CodingKey {
        case revealed = "token"
        case expiresAt
    }

    /// Whether the token has expired at a given moment.
    ///
    /// - Parameter now: The moment to check against.
    /// - Returns: `true` once `now` has reached ``expiresAt``.
    public func isExpired(at now: Date) -> Bool {
        now >= expiresAt
    }

    /// The printable form: `tok…a1f3`.
    public var redacted: String { Redaction.token(revealed) }
    /// The redacted form and the expiry.
    public var debugDescription: String { "AuthToken(\(redacted), expiresAt: \(expiresAt))" }
    /// A mirror with only the redacted form and the expiry.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted, "expiresAt": expiresAt]) }
}
