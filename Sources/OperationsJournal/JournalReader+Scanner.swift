import Foundation

extension JournalReader {
    /// A cursor over one journal line that checks it is JSON as RFC 8259 defines it and finds
    /// where each value stands, without building anything.
    ///
    /// It takes the common form of the journal's own lines (``JournalLine``): it refuses
    /// (``Refused``) whatever it does not take — invalid JSON, nesting deeper than
    /// ``maximumDepth``, invalid UTF-8 — and the caller then hands the line to `JSONDecoder`,
    /// which reads it as before and says what is wrong with it. So a line reads the same whether
    /// this scanner takes it or not.
    struct Scanner {
        /// Why the scanner did not take a line; never shown, the general decoder reads it instead.
        struct Refused: Error {}

        /// What a value is, as its first byte says.
        enum Kind {
            case string, number, object, array, literal
        }

        /// A string's place: the bytes between its quotes.
        struct StringToken {
            let content: Range<Int>
            /// Whether it holds a backslash escape: its text is then not its bytes.
            let escaped: Bool
            /// Whether it holds bytes beyond ASCII (checked to be UTF-8).
            let wide: Bool
        }

        /// Nesting beyond this is left to `JSONDecoder`, which has its own limit: the scanner's
        /// recursion stays small whatever a line holds.
        static let maximumDepth = 64

        let bytes: ArraySlice<UInt8>
        var position: Int

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            self.position = bytes.startIndex
        }

        var isAtEnd: Bool { position >= bytes.endIndex }

        mutating func skipSpace() {
            while position < bytes.endIndex {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// The next byte after white space, not consumed.
        mutating func peek() throws(Refused) -> UInt8 {
            skipSpace()
            guard position < bytes.endIndex else { throw Refused() }
            return bytes[position]
        }

        mutating func expect(_ byte: UInt8) throws(Refused) {
            guard try peek() == byte else { throw Refused() }
            position += 1
        }

        /// Consumes `byte` if it comes next.
        mutating func take(_ byte: UInt8) throws(Refused) -> Bool {
            guard try peek() == byte else { return false }
            position += 1
            return true
        }

        /// Skips one value of any kind, checking it; returns its kind and where it stands.
        mutating func skipValue(depth: Int = 0) throws(Refused) -> (kind: Kind, range: Range<Int>) {
            let first = try peek()
            let start = position
            let kind: Kind
            switch first {
            case UInt8(ascii: "\""):
                _ = try string()
                kind = .string
            case UInt8(ascii: "{"):
                guard depth < Self.maximumDepth else { throw Refused() }
                position += 1
                if try !take(UInt8(ascii: "}")) {
                    repeat {
                        guard try peek() == UInt8(ascii: "\"") else { throw Refused() }
                        _ = try string()
                        try expect(UInt8(ascii: ":"))
                        _ = try skipValue(depth: depth + 1)
                    } while try take(UInt8(ascii: ","))
                    try expect(UInt8(ascii: "}"))
                }
                kind = .object
            case UInt8(ascii: "["):
                guard depth < Self.maximumDepth else { throw Refused() }
                position += 1
                if try !take(UInt8(ascii: "]")) {
                    repeat {
                        _ = try skipValue(depth: depth + 1)
                    } while try take(UInt8(ascii: ","))
                    try expect(UInt8(ascii: "]"))
                }
                kind = .array
            case UInt8(ascii: "t"):
                try literal(Self.trueBytes)
                kind = .literal
            case UInt8(ascii: "f"):
                try literal(Self.falseBytes)
                kind = .literal
            case UInt8(ascii: "n"):
                try literal(Self.nullBytes)
                kind = .literal
            default:
                _ = try number()
                kind = .number
            }
            return (kind, start..<position)
        }

        /// A string at the cursor, its quotes consumed.
        mutating func string() throws(Refused) -> StringToken {
            try expect(UInt8(ascii: "\""))
            let start = position
            var escaped = false
            var wide = false
            while true {
                guard position < bytes.endIndex else { throw Refused() }
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    let content = start..<position
                    position += 1
                    if wide, String(validating: bytes[content], as: UTF8.self) == nil { throw Refused() }
                    return StringToken(content: content, escaped: escaped, wide: wide)
                case UInt8(ascii: "\\"):
                    escaped = true
                    position += 1
                    guard position < bytes.endIndex else { throw Refused() }
                    switch bytes[position] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        position += 1
                    case UInt8(ascii: "u"):
                        // The code units' meaning (surrogate pairs) is left to `JSONDecoder`,
                        // which reads every escaped string (``text(_:)``).
                        guard position + 4 < bytes.endIndex,
                            bytes[(position + 1)...(position + 4)].allSatisfy(\.isHexDigit)
                        else { throw Refused() }
                        position += 5
                    default:
                        throw Refused()
                    }
                case 0..<0x20:
                    throw Refused()
                case 0x80...:
                    wide = true
                    position += 1
                default:
                    position += 1
                }
            }
        }

        /// A number at the cursor; `integral` when it has neither fraction nor exponent.
        mutating func number() throws(Refused) -> (range: Range<Int>, integral: Bool) {
            skipSpace()
            let start = position
            _ = consume(UInt8(ascii: "-"))
            guard position < bytes.endIndex, bytes[position].isDigit else { throw Refused() }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else {
                skipDigits()
            }
            var integral = true
            if consume(UInt8(ascii: ".")) {
                integral = false
                guard position < bytes.endIndex, bytes[position].isDigit else { throw Refused() }
                skipDigits()
            }
            if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                integral = false
                if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                guard position < bytes.endIndex, bytes[position].isDigit else { throw Refused() }
                skipDigits()
            }
            return (start..<position, integral)
        }

        /// The text of a string; an escaped one is read by `JSONDecoder`, so escapes mean what
        /// they always meant.
        func text(_ token: StringToken) throws(Refused) -> String {
            if !token.escaped {
                return String(decoding: bytes[token.content], as: UTF8.self)
            }
            let quoted = bytes[(token.content.lowerBound - 1)...token.content.upperBound]
            guard let text = try? JSONDecoder().decode(String.self, from: Data(quoted)) else { throw Refused() }
            return text
        }

        /// The integer a number token holds, if it is one that fits.
        func integer(_ range: Range<Int>) -> Int64? {
            var index = range.lowerBound
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var value: Int64 = 0
            while index < range.upperBound {
                let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
                let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) =
                    negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
                if overflowTimes || overflowSum { return nil }
                value = sum
                index += 1
            }
            return value
        }

        private mutating func skipDigits() {
            while position < bytes.endIndex, bytes[position].isDigit { position += 1 }
        }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard position < bytes.endIndex, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        private mutating func literal(_ word: [UInt8]) throws(Refused) {
            guard position + word.count <= bytes.endIndex,
                bytes[position..<(position + word.count)].elementsEqual(word)
            else { throw Refused() }
            position += word.count
        }

        static let trueBytes = Array("true".utf8)
        static let falseBytes = Array("false".utf8)
        static let nullBytes = Array("null".utf8)
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
