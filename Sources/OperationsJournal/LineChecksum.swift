import Operations

/// The checksum every journal line ends with, `,"sum":"0a1b2c3d"}`: Adler-32 of the line's bytes
/// before it, as 8 hexadecimal digits.
///
/// A line damaged on disk (a flipped bit, a byte of another file, an editor's re-encoding) is
/// then told apart from a line that merely reads as JSON, and the reader names it instead of
/// replaying what it says. Adler-32 rather than CRC-32: it catches the damage that happens to a
/// file at rest, and its two additions per byte keep a buffered append within its 2 µs budget;
/// it is no defence against someone who edits the journal on purpose, and does not try to be.
///
/// Lines without a checksum (journals written before it) are read as before.
enum LineChecksum {
    /// The key, named once for the writer and the reader.
    static let key: StaticString = "sum"
    /// `,"sum":"` — what precedes the digits at the end of a line.
    private static let marker: [UInt8] = Array(",\"sum\":\"".utf8)
    /// The marker, 8 digits, and `"}`.
    static let suffixLength = marker.count + 8 + 2

    /// Adler-32 of `bytes`.
    static func adler32(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let modulus: UInt32 = 65521
        // 5552 bytes is the most that can be summed before `b` could overflow 32 bits; a
        // multiple of 8, so the blocks split into words.
        let block = 5552
        var a: UInt32 = 1
        var b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            let end = min(index + block, bytes.count)
            // Sixteen bytes a turn in vector lanes, then eight within one word: byte by byte,
            // the checksum was a tenth of an append. The index stays below the count: no
            // overflow checks.
            while index &+ 16 <= end {
                let (sum, weighted) = sums(
                    of: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: SIMD16<UInt8>.self))
                b &+= 16 &* a &+ weighted
                a &+= sum
                index &+= 16
            }
            while index &+ 8 <= end {
                let word = UInt64(
                    littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
                let (sum, weighted) = sums(of: word)
                b &+= 8 &* a &+ weighted
                a &+= sum
                index &+= 8
            }
            while index < end {
                a &+= UInt32(truncatingIfNeeded: bytes[index])
                b &+= a
                index &+= 1
            }
            a %= modulus
            b %= modulus
        }
        return b << 16 | a
    }

    /// For sixteen bytes, first byte first: their sum, and the sum weighted 16 for the first
    /// down to 1 for the last (what they add to Adler-32's `b` beyond `16 * a`).
    private static func sums(of bytes: SIMD16<UInt8>) -> (sum: UInt32, weighted: UInt32) {
        // In 16-bit lanes nothing overflows: a weighted byte is at most 255 × 16, and all
        // sixteen of them add up to at most 255 × 136 = 34,680.
        let wide = SIMD16<UInt16>(truncatingIfNeeded: bytes)
        let weights = SIMD16<UInt16>(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
        return (UInt32(wide.wrappedSum()), UInt32((wide &* weights).wrappedSum()))
    }

    /// For the eight bytes of `word`, first byte lowest: their sum, and the sum weighted 8 for
    /// the first down to 1 for the last (what they add to Adler-32's `b` beyond `8 * a`).
    private static func sums(of word: UInt64) -> (sum: UInt32, weighted: UInt32) {
        // The even and the odd bytes in four 16-bit lanes each; no lane of a product below
        // reaches 16 bits, so no lane carries into the next.
        let lanes: UInt64 = 0x00FF_00FF_00FF_00FF
        let even = word & lanes
        let odd = (word >> 8) & lanes
        // Multiplying by lane weights gathers the weighted lanes in the top lane.
        let sum = ((even &+ odd) &* 0x0001_0001_0001_0001) >> 48
        let weightedEven = (even &* 0x0008_0006_0004_0002) >> 48
        let weightedOdd = (odd &* 0x0007_0005_0003_0001) >> 48
        return (UInt32(truncatingIfNeeded: sum), UInt32(truncatingIfNeeded: weightedEven &+ weightedOdd))
    }

    /// The lowercase hexadecimal digit of the low four bits of `value`.
    static func hexDigit(_ value: UInt32) -> UInt8 {
        // Computed, not looked up in an array: this runs eight times for every journal line,
        // and a table built per call allocated on every append.
        let digit = UInt8(truncatingIfNeeded: value & 0xF)
        return digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
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
        guard line.count >= suffixLength + 1 else { return .absent }
        let suffixStart = line.endIndex - suffixLength
        guard line[suffixStart..<(suffixStart + marker.count)].elementsEqual(marker),
            line[line.endIndex - 2] == UInt8(ascii: "\""), line[line.endIndex - 1] == UInt8(ascii: "}")
        else { return .absent }
        var recorded: UInt32 = 0
        for byte in line[(suffixStart + marker.count)..<(line.endIndex - 2)] {
            guard let digit = hexValue(byte) else { return .damaged }
            recorded = recorded << 4 | digit
        }
        let computed = line.withUnsafeBufferPointer { buffer in
            adler32(UnsafeBufferPointer(rebasing: buffer[..<(suffixStart - line.startIndex)]))
        }
        return computed == recorded ? .intact : .damaged
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }
}
