public import Operations

/// A one-time code from an SMS: digits only, as many as the backend announced.
///
/// A secret. Every printed form shows ``redacted`` (`••••••`); the clear digits are available only
/// as ``revealed``.
public struct SMSCode: Sendable, Hashable, Codable, Redactable {
    /// The clear digits, for the verify request. Never print or log them.
    public let revealed: String

    /// Validates what a person typed.
    ///
    /// Spaces and dashes are dropped first, because people copy codes like `123 456`.
    ///
    /// - Parameters:
    ///   - input: The text as typed.
    ///   - length: The number of digits the backend announced for this code.
    /// - Throws: ``SMSCodeError`` naming the problem.
    public init(_ input: String, length: Int) throws(SMSCodeError) {
        var digits = ""
        for character in input where !(character.isWhitespace || character == "-") {
            guard character.isASCII, character.isNumber else { throw .notDigits }
            digits.append(character)
            // Stop early: 10 kB of digits is "too long" after length + 1 of them.
            if digits.count > length { throw .wrongLength(expected: length) }
        }
        guard !digits.isEmpty else { throw .empty }
        guard digits.count == length else { throw .wrongLength(expected: length) }
        revealed = digits
    }

    /// Decodes the bare digit string; any non-empty run of digits is accepted because the
    /// expected length is not known when decoding.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "an SMS code is digits only")
        }
        revealed = text
    }

    /// Encodes the bare digit string. Whoever encodes a code is writing a secret.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(revealed)
    }

    /// The printable form: `••••••`, whatever the length.
    public var redacted: String { Redaction.mask(revealed) }
    /// The redacted form, labelled.
    public var debugDescription: String { "SMSCode(\(redacted))" }
    /// A mirror with only the redacted form.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted]) }
}

/// Why typed text is not a valid SMS code.
public enum SMSCodeError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Nothing was entered.
    case empty
    /// Something other than digits, spaces or dashes was entered.
    case notDigits
    /// The number of digits differs from the announced length.
    case wrongLength(expected: Int)

    /// A sentence for the person typing the code.
    public var description: String {
        switch self {
        case .empty: "Enter the code from the SMS."
        case .notDigits: "The code from the SMS contains digits only."
        case .wrongLength(let expected): "The code from the SMS has \(expected) digits."
        }
    }
}
