import Testing

@testable import Operations
@testable import OperationsJournal

/// The checksum is Adler-32: journals written by any build verify under any other.
@Suite struct LineChecksumTests {
    @Test func aKnownValue() {
        // Adler-32 of "Wikipedia", the example of the algorithm's article.
        #expect(LineChecksum.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
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
