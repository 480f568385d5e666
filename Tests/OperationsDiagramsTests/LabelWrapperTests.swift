import OperationsTestSupport
import Testing

@testable import Operations
@testable import OperationsDiagrams

/// How a label wraps, and that fitting's measure of a label agrees with the wrapping it stands
/// for, on many generated labels: a gap sized from ``MeasuredLabel`` must hold the lines
/// ``LabelWrapper`` then makes.
@Suite struct LabelWrapperTests {
    /// Labels of ASCII words, identifiers, punctuation and non-ASCII characters (`…`, `é`, `→`,
    /// Greek, box drawing, wide and combining text), with runs of spaces.
    private static func labels(count: Int) -> [String] {
        let pieces = [
            "checkoutRequest", "tok…1f", "save(", "token:", "é", "→", "αβγδε", "a", "verify_code", "user-id",
            "path/to/it", "x:y", "(", ",", ".", " ", "  ", "ABCDEFGHIJKLMNOP", "123456", "…", "─", "launch(",
            "onFinish(success(", "))", "naïveCafé", "日本語", "cafe\u{301}",
        ]
        var generator = SplitMix(seed: 42)
        return (0..<count).map { _ in
            var label = ""
            for _ in 0..<Int(generator.next() % 9 + 1) {
                label += pieces[Int(generator.next() % UInt64(pieces.count))]
            }
            return LabelWrapper.sanitize(label)
        }
    }

    @Test func fittingMeasuresWhatWrappingMakes() {
        for label in Self.labels(count: 2_000) {
            let measured = MeasuredLabel(label)
            #expect(measured.natural == label.displayWidth)
            for width in [1, 2, 3, 5, 8, 13, 21, 40] {
                let lines = LabelWrapper.wrap(label, width: width)
                let widest = lines.map(\.displayWidth).max() ?? 0
                // No line is wider than the width, none ends in a space, and the text is all there.
                #expect(widest <= max(width, 2), "\(label) at \(width)")
                #expect(lines.allSatisfy { $0.last != " " }, "\(label) at \(width)")
                #expect(
                    lines.joined().filter { $0 != " " } == label.filter { $0 != " " }, "\(label) at \(width)")
                if measured.longest <= width {
                    // Only soft breaks: the estimate is exact.
                    #expect(measured.wrappedWidth(width) == widest, "\(label) at \(width)")
                    #expect(measured.harm(width) == 0)
                } else if width > 1 {
                    // A hard break: the estimate may be wider, never narrower.
                    #expect(measured.wrappedWidth(width) >= widest, "\(label) at \(width)")
                }
            }
        }
    }

    @Test func keepsTheLineLimitWithAnEllipsis() {
        #expect(
            LabelWrapper.wrap("one two three four five", width: 9, maxLines: 2) == ["one two", "three…"])
        #expect(LabelWrapper.wrap("one two", width: 9, maxLines: 1) == ["one two"])
        #expect(LabelWrapper.ellipsized("checkout  request", width: 10) == "checkout…")
    }

    @Test func breaksATokenAtItsWordsThenWhereTheLineIsFull() {
        #expect(LabelWrapper.wrap("save(checkoutRequest)", width: 10) == ["save(", "checkout", "Request)"])
        #expect(LabelWrapper.wrap("ABCDEFGHIJ", width: 4) == ["ABCD", "EFGH", "IJ"])
        #expect(LabelWrapper.wrap("a  b", width: 1) == ["a", "b"])
    }

    @Test func sanitizesControlCharacters() {
        #expect(LabelWrapper.sanitize("\t a\nb\u{7}c  ") == "a b c")
        #expect(LabelWrapper.sanitize("tok…1f") == "tok…1f")
    }

    @Test func wideAndCombiningTextStillWrapsByGrapheme() {
        #expect(LabelWrapper.wrap("日本語のラベル", width: 6) == ["日本語", "のラベ", "ル"])
        #expect(LabelWrapper.wrap("cafe\u{301} cafe\u{301}", width: 4) == ["café", "café"])
        #expect(LabelWrapper.wrap("日本", width: 1) == ["日", "本"])
        #expect("e\u{301}\u{1F600}".displayWidth == 3)
    }
}
