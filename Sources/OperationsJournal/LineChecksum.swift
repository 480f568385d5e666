import Operations

/// The checksum every journal line ends with, `,"sum":"0a1b2c3d"}`: Adler-32 of the line's bytes
/// before it, as 8 hexadecimal digits.
///
/// A line damaged on disk (a flipped bit, a byte of another file, an editor's re-encoding) is
/// then told apart from a line that merely reads as JSON, and the reader names it instead of
/// replaying what it says. Adler-32 rather than CRC-32: it catches the damage that happens to a
/// file at rest for two additions a byte; it is no defence against someone who edits the
/// journal on purpose, and does not try to be.
///
/// Lines without a checksum (journals written before it) are read as before.
enum LineChecksum {
    /// The key, named once for the writer and the reader.
    static let key = "sum"
    /// `,"sum":"` — what precedes the digits at the end of a line.
    private static let marker: [UInt8] = Array(",\"sum\":\"".utf8)
    /// The marker, 8 digits, and `"}`.
    static let suffixLength = marker.count + 8 + 2

    /// Adler-32 of `bytes`.
    static func adler32(_ bytes: some Collection<UInt8>) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var rest = bytes[...]
        while !rest.isEmpty {
            // 5552 bytes is the most that can be summed before `b` could overflow 32 bits, so
            // the additions need no overflow check.
            for byte in rest.prefix(5552) {
                a &+= UInt32(byte)
                b &+= a
            }
            rest = rest.dropFirst(5552)
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }

    /// The line's checksum field and its end: `,"sum":"0a1b2c3d"}` and the newline.
    static func suffix(for line: some Collection<UInt8>) -> [UInt8] {
        suffix(sum: adler32(line))
    }

    /// The checksum field and the end of a line whose checksum is `sum`.
    static func suffix(sum: UInt32) -> [UInt8] {
        var suffix: [UInt8] = []
        appendSuffix(sum, to: &suffix)
        return suffix
    }

    /// ``suffix(sum:)`` appended to the line it ends.
    static func appendSuffix(_ sum: UInt32, to line: inout [UInt8]) {
        line += marker
        appendHex(sum, to: &line)
        line += #""}"#.utf8
        line.append(UInt8(ascii: "\n"))
    }

    /// What a line's checksum says about it.
    enum Verdict: Equatable {
        /// The line has no checksum (written before journals had them).
        case absent
        /// The checksum matches: the line is as it was written.
        case intact
        /// The checksum does not match: the line changed after it was written.
        case damaged
    }

    /// Checks one line (without its newline).
    static func verify(_ line: ArraySlice<UInt8>) -> Verdict {
        guard let (body, recorded) = split(line) else { return .absent }
        guard let recorded else { return .damaged }
        return adler32(body) == recorded ? .intact : .damaged
    }

    /// The checksum a line records when it is intact; `nil` for a line without one or damaged.
    static func intactSum(_ line: ArraySlice<UInt8>) -> UInt32? {
        guard let (body, recorded) = split(line), let recorded, adler32(body) == recorded else { return nil }
        return recorded
    }

    /// A line (without its newline) as the bytes its checksum covers and the checksum it
    /// records (`nil` when its digits are not hexadecimal); `nil` for a line without one.
    static func split(_ line: ArraySlice<UInt8>) -> (body: ArraySlice<UInt8>, recorded: UInt32?)? {
        guard line.count >= suffixLength + 1 else { return nil }
        let suffixStart = line.endIndex - suffixLength
        guard line[suffixStart..<(suffixStart + marker.count)].elementsEqual(marker),
            line[line.endIndex - 2] == UInt8(ascii: "\""), line[line.endIndex - 1] == UInt8(ascii: "}")
        else { return nil }
        return (line[..<suffixStart], value(hex: line[(suffixStart + marker.count)..<(line.endIndex - 2)]))
    }

    /// `sum` as the 8 hexadecimal digits a line writes.
    static func hex(_ sum: UInt32) -> String {
        var digits: [UInt8] = []
        appendHex(sum, to: &digits)
        return String(decoding: digits, as: UTF8.self)
    }

    /// `sum`'s 8 digits, as ``hex(_:)`` spells them, appended without making a string: every
    /// line writes one or two (Docs/Benchmarks.md, "journal.fsync").
    static func appendHex(_ sum: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 28, through: 0, by: -4) {
            let digit = UInt8(truncatingIfNeeded: sum >> UInt32(shift)) & 0xf
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }

    /// The value of 8 hexadecimal digits as a line writes them; `nil` for anything else.
    static func value(hex text: some Collection<UInt8>) -> UInt32? {
        guard text.count == 8 else { return nil }
        var value: UInt32 = 0
        for byte in text {
            guard let digit = hexValue(byte) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }
}
