import Testing

@testable import Operations
@testable import OperationsJournal

/// The checksum summed a word at a time is Adler-32 as its definition computes it, byte by
/// byte, across word and block boundaries and at the extremes of byte values.
@Suite struct LineChecksumTests {
    private static func adler32ByDefinition(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    private static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { LineChecksum.adler32($0) }
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 63, 200, 5551, 5552, 5553, 5560, 20_000])
    func matchesTheDefinition(length: Int) {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(Self.checksum(random) == Self.adler32ByDefinition(random))
        let full = [UInt8](repeating: 0xFF, count: length)
        #expect(Self.checksum(full) == Self.adler32ByDefinition(full))
    }

    @Test func aKnownValue() {
        // Adler-32 of "Wikipedia", the example of the algorithm's article.
        #expect(Self.checksum(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }
}
