import Testing

@testable import Operations
@testable import OperationsJournal

/// The checksum is Adler-32: journals written by any build verify under any other.
@Suite struct LineChecksumTests {
    @Test func aKnownValue() {
        // Adler-32 of "Wikipedia", the example of the algorithm's article.
        #expect(LineChecksum.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    /// Past the 5,552 bytes summed before a reduction, against the definition reduced byte by byte.
    @Test func aLongLineSumsAsTheDefinitionSays() {
        let bytes = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 255) }
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        #expect(LineChecksum.adler32(bytes) == b << 16 | a)
        #expect(LineChecksum.adler32([UInt8]()) == 1)
    }

    @Test func sumsAreWrittenAsEightLowercaseHexDigits() {
        for sum: UInt32 in [0, 0xa, 0x0a1b_2c3d, 0xffff_ffff, 0x8000_0000] {
            let hex = String(sum, radix: 16)
            #expect(LineChecksum.hex(sum) == String(repeating: "0", count: 8 - hex.count) + hex)
        }
    }

    @Test func aLineEndsWithItsSumAndVerifies() {
        var line = JournalLine()
        line.field("text", string: "tab\t \"quoted\" \u{1} é")
        let sum = line.end(at: LinePosition(sequence: 2, previous: 0x0a1b_2c3d))
        #expect(LineChecksum.intactSum(line.bytes.dropLast()) == sum)
        #expect(line.bytes.last == UInt8(ascii: "\n"))
        #expect(LineChecksum.verify(line.bytes.dropLast()) == .intact)
        var damaged = line.bytes.dropLast()
        damaged[damaged.startIndex + 3] ^= 1
        #expect(LineChecksum.verify(damaged) == .damaged)
    }
}
