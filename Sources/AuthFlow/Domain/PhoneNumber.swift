/// A phone number in E.164 form (`+79991234567`), parsed from what people type.
///
/// ## Parsing rule
/// - Digits count; spaces, `-`, `(`, `)` and `.` are separators and are dropped.
/// - A leading `+` (or `00`, the international call prefix) means the digits that follow are the
///   country code and the number.
/// - Without `+`, the number must be written in the national format of a ``NationalConvention``:
///   the default, ``NationalConvention/russia``, reads `8 999 123 45 67` as `+79991234567`. Pass
///   `nil` to require `+`. Any other digits without `+` are ambiguous (is `7999…` a country code?)
///   and are rejected with ``PhoneNumberError/missingCountryCode`` rather than guessed.
/// - An international number has 8 to 15 digits (E.164 allows at most 15; fewer than 8 is no
///   subscriber number anywhere we sign people in).
///
/// ```swift
/// let phone = try PhoneNumber(parsing: "+7 (999) 123-45-67")
/// phone.e164 // "+79991234567"
/// ```
public struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// The fewest digits (country code included) accepted after `+`.
    public static let minimumDigits = 8
    /// The most digits E.164 allows.
    public static let maximumDigits = 15

    /// The number as `+` and digits, the form the backend expects.
    public let e164: String

    /// Parses what a person typed.
    ///
    /// - Parameters:
    ///   - input: The text as typed, with any separators.
    ///   - convention: How to read a number typed without `+`; `nil` requires `+`.
    /// - Throws: ``PhoneNumberError`` naming the first problem found.
    public init(parsing input: String, convention: NationalConvention? = .russia) throws(PhoneNumberError) {
        var digits: [Character] = []
        var sawPlus = false
        var sawAnything = false
        for character in input {
            if character.isWhitespace || Self.separators.contains(character) {
                continue
            }
            if character == "+", !sawAnything {
                sawPlus = true
                sawAnything = true
                continue
            }
            sawAnything = true
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if character.isLetter {
                throw .containsLetters
            } else {
                throw .invalidCharacter(character)
            }
        }
        guard sawAnything else { throw .empty }
        if !sawPlus, digits.starts(with: "00") {
            digits.removeFirst(2)
            sawPlus = true
        }
        if sawPlus {
            guard digits.first != "0" else { throw .missingCountryCode }
            try Self.checkLength(digits.count, minimum: Self.minimumDigits, maximum: Self.maximumDigits)
            e164 = "+" + String(digits)
            return
        }
        guard let convention, digits.starts(with: convention.trunkPrefix) else {
            throw .missingCountryCode
        }
        let expected = convention.trunkPrefix.count + convention.nationalNumberLength
        try Self.checkLength(digits.count, minimum: expected, maximum: expected)
        e164 = "+" + convention.countryCode + String(digits.dropFirst(convention.trunkPrefix.count))
    }

    /// The E.164 form; a phone number is personal data but not a secret.
    public var description: String { e164 }

    private static let separators: Set<Character> = ["-", "(", ")", "."]

    private static func checkLength(_ count: Int, minimum: Int, maximum: Int) throws(PhoneNumberError) {
        if count < minimum { throw .tooShort(digitCount: count, minimum: minimum) }
        if count > maximum { throw .tooLong(digitCount: count, maximum: maximum) }
    }
}

extension PhoneNumber {
    /// How a country writes numbers without `+`: a trunk prefix followed by a fixed-length
    /// national number.
    public struct NationalConvention: Sendable, Hashable {
        /// The country calling code, digits only (`"7"`).
        public var countryCode: String
        /// The prefix dialled before a national number (`"8"` in Russia).
        public var trunkPrefix: String
        /// How many digits follow the trunk prefix.
        public var nationalNumberLength: Int

        /// Creates a convention.
        public init(countryCode: String, trunkPrefix: String, nationalNumberLength: Int) {
            self.countryCode = countryCode
            self.trunkPrefix = trunkPrefix
            self.nationalNumberLength = nationalNumberLength
        }

        /// Russia and Kazakhstan: `8 999 123-45-67` is `+7 999 123-45-67`.
        public static let russia = NationalConvention(countryCode: "7", trunkPrefix: "8", nationalNumberLength: 10)
    }
}

// Encoded as the bare E.164 string; decoding re-validates, requiring `+`, so a damaged journal or
// payload cannot smuggle in a number that parsing would reject.
extension PhoneNumber: Codable {
    /// Decodes an E.164 string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text, convention: nil)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the E.164 string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(e164)
    }
}
