/// Why text someone typed is not a phone number.
///
/// Every case has a sentence fit to show under the input field. None of them repeats the whole
/// input, so 10 kB of pasted text never ends up in a message or a log.
public enum PhoneNumberError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Nothing but whitespace was entered.
    case empty
    /// The text contains letters.
    case containsLetters
    /// The text contains a character that is neither a digit nor a separator people type
    /// (space, `-`, `(`, `)`, `.`), or a `+` that is not the first character.
    case invalidCharacter(Character)
    /// The number has no `+` and country code and does not match the national convention in use.
    case missingCountryCode
    /// Fewer digits than a full number has.
    case tooShort(digitCount: Int, minimum: Int)
    /// More digits than a full number can have.
    case tooLong(digitCount: Int, maximum: Int)

    /// A sentence for the person who typed the number.
    public var description: String {
        switch self {
        case .empty:
            "Enter a phone number."
        case .containsLetters:
            "A phone number cannot contain letters."
        case .invalidCharacter(let character):
            "“\(character)” cannot appear in a phone number; use digits, spaces, brackets, dashes and a leading +."
        case .missingCountryCode:
            "Start the number with + and the country code, for example +7 999 123-45-67."
        case .tooShort(let count, let minimum):
            "The number has \(count) digits, but a full phone number has at least \(minimum)."
        case .tooLong(let count, let maximum):
            "The number has \(count) digits, but a phone number has at most \(maximum)."
        }
    }
}

// Character is not Codable; the error is encoded into journals, so it goes as a one-letter string.
extension PhoneNumberError {
    private enum CodingKeys: String, CodingKey {
        case kind, character, digitCount, limit
    }

    /// Decodes an error written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "empty": self = .empty
        case "containsLetters": self = .containsLetters
        case "invalidCharacter":
            let text = try container.decode(String.self, forKey: .character)
            guard let character = text.first, text.count == 1 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .character, in: container, debugDescription: "expected exactly one character")
            }
            self = .invalidCharacter(character)
        case "missingCountryCode": self = .missingCountryCode
        case "tooShort":
            self = .tooShort(
                digitCount: try container.decode(Int.self, forKey: .digitCount),
                minimum: try container.decode(Int.self, forKey: .limit))
        case "tooLong":
            self = .tooLong(
                digitCount: try container.decode(Int.self, forKey: .digitCount),
                maximum: try container.decode(Int.self, forKey: .limit))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "unknown phone number error kind")
        }
    }

    /// Encodes the error as `{"kind": …}` plus the case's values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .empty: try container.encode("empty", forKey: .kind)
        case .containsLetters: try container.encode("containsLetters", forKey: .kind)
        case .invalidCharacter(let character):
            try container.encode("invalidCharacter", forKey: .kind)
            try container.encode(String(character), forKey: .character)
        case .missingCountryCode: try container.encode("missingCountryCode", forKey: .kind)
        case .tooShort(let count, let minimum):
            try container.encode("tooShort", forKey: .kind)
            try container.encode(count, forKey: .digitCount)
            try container.encode(minimum, forKey: .limit)
        case .tooLong(let count, let maximum):
            try container.encode("tooLong", forKey: .kind)
            try container.encode(count, forKey: .digitCount)
            try container.encode(maximum, forKey: .limit)
        }
    }
}
