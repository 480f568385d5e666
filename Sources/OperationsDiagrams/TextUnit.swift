/// What wrapping and fitting ask of one character of a label: a grapheme, or a byte of a label
/// that is all printable ASCII, where every byte is a grapheme one column wide and the text is
/// walked without finding grapheme breaks.
protocol TextUnit: Equatable {
    var columns: Int { get }
    var isSpace: Bool { get }
    /// Whether a line may break after it: a space, `(`, `,` or `.`.
    var breaksAfter: Bool { get }
    var isPunctuation: Bool { get }
    /// Whether a hard break between two characters falls where an identifier's words meet: a
    /// lower-case letter or digit followed by a capital (`checkout|Request`), or after `_`, `-`,
    /// `/`, `:`.
    static func isWordBoundary(_ previous: Self, _ next: Self) -> Bool
}

extension UInt8: TextUnit {
    var columns: Int { 1 }
    var isSpace: Bool { self == 0x20 }
    var breaksAfter: Bool { self == 0x20 || self == 0x28 || self == 0x2C || self == 0x2E }
    var isPunctuation: Bool { Character(Unicode.Scalar(self)).isPunctuation }

    static func isWordBoundary(_ previous: UInt8, _ next: UInt8) -> Bool {
        let lowerOrDigit = (0x61...0x7A).contains(previous) || (0x30...0x39).contains(previous)
        if lowerOrDigit && (0x41...0x5A).contains(next) { return true }
        return previous == 0x5F || previous == 0x2D || previous == 0x2F || previous == 0x3A
    }
}

extension Character: TextUnit {
    /// The character's byte when it is one ASCII scalar.
    private var asciiByte: UInt8? { utf8.count == 1 ? utf8.first : nil }

    var columns: Int { displayWidth }
    var isSpace: Bool { asciiByte == 0x20 }
    var breaksAfter: Bool { asciiByte?.breaksAfter ?? false }

    static func isWordBoundary(_ previous: Character, _ next: Character) -> Bool {
        if let before = previous.asciiByte, let after = next.asciiByte {
            return UInt8.isWordBoundary(before, after)
        }
        guard let before = previous.unicodeScalars.last, let after = next.unicodeScalars.first else { return false }
        if (before.properties.isLowercase || before.properties.numericType != nil) && after.properties.isUppercase {
            return true
        }
        return before == "_" || before == "-" || before == "/" || before == ":"
    }
}
