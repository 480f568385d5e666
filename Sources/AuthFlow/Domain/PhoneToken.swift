public import Operations

/// The backend's proof that a phone number was submitted: the bearer for the terms and code steps.
///
/// A secret. Every printed form (`description`, interpolation, `debugDescription`, `dump`) shows
/// only ``redacted``; the clear value is available only as ``revealed``.
public struct PhoneToken: Sendable, Hashable, Codable, Redactable {
    /// The clear token, for the `Authorization` header and for storage. Never print or log it.
    public let revealed: String

    /// Wraps a token received from the backend.
    ///
    /// - Parameter revealed: The clear token.
    public init(_ revealed: String) {
        self.revealed = revealed
    }

    /// Decodes the bare token string.
    public init(from decoder: any Decoder) throws {
        revealed = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the bare token string. Whoever encodes a token is writing a secret: keep the
    /// output owner-readable only.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(revealed)
    }

    /// The printable form: `tok…a1f3`.
    public var redacted: String { Redaction.token(revealed) }
    /// The redacted form, labelled.
    public var debugDescription: String { "PhoneToken(\(redacted))" }
    /// A mirror with only the redacted form, so `dump` and debuggers do not show the secret.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted]) }
}
