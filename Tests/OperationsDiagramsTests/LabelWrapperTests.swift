import OperationsTestSupport
import Testing

@testable import Operations
@testable import OperationsDiagrams

/// `LabelWrapper.wrap` walks a label's UTF-8 a scalar at a time, for speed. These tests hold it
/// to the plain unit-by-unit algorithm it replaced, on many generated labels, so that a drawing
/// never changes because a label wrapped differently.
@Suite struct LabelWrapperTests {
    /// Labels of ASCII words, identifiers, punctuation and standalone non-ASCII scalars (`…`,
    /// `é`, `→`, Greek, box drawing), with runs of spaces.
    private static func labels(count: Int) -> [String] {
        let pieces = [
            "checkoutRequest", "tok…1f", "save(", "token:", "é", "→", "αβγδε", "a", "verify_code", "user-id",
            "path/to/it", "x:y", "(", ",", ".", " ", "  ", "ABCDEFGHIJKLMNOP", "123456", "…", "─", "launch(",
            "onFinish(success(", "))", "naïveCafé",
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

    @Test func wrapsLikeTheUnitByUnitAlgorithm() {
        for label in Self.labels(count: 3_000) {
            for width in [1, 2, 3, 5, 8, 13, 21, 40] {
                let expected = ReferenceWrap.wrap(Array(label.unicodeScalars), width: width)
                #expect(LabelWrapper.wrap(label, width: width) == expected, "\(label) at \(width)")
                // Past a line limit, wrapping stops early; what is kept must not change.
                var limited = Array(expected.prefix(2))
                if expected.count > 2 { limited[1] = LabelWrapper.ellipsized(limited[1], width: width) }
                #expect(LabelWrapper.wrap(label, width: width, maxLines: 2) == limited, "\(label) at \(width), 2 lines")
            }
        }
    }

    @Test func measuresLikeTheScalarView() {
        for label in Self.labels(count: 1_000) {
            let expected = label.unicodeScalars.reduce(0) { $0 + $1.standaloneDisplayWidth }
            #expect(label.displayWidth == expected)
            var pieces = WrapPieces()
            #expect(pieces.measure(label).natural == expected)
        }
    }

    @Test func cutsWithAnEllipsisLikeTheCharacterLoop() {
        for label in Self.labels(count: 1_000) {
            for width in [1, 2, 4, 9, 17] {
                var characters = Array(label)
                var lineWidth = label.displayWidth
                while !characters.isEmpty && lineWidth + 1 > width { lineWidth -= characters.removeLast().displayWidth }
                while characters.last == " " { characters.removeLast() }
                #expect(
                    LabelWrapper.ellipsized(label, width: width) == String(characters) + "…", "\(label) at \(width)")
            }
        }
    }

    @Test func wideAndCombiningTextStillWrapsByGrapheme() {
        #expect(LabelWrapper.wrap("日本語のラベル", width: 6) == ["日本語", "のラベ", "ル"])
        #expect(LabelWrapper.wrap("cafe\u{301} cafe\u{301}", width: 4) == ["café", "café"])
        #expect("e\u{301}\u{1F600}".displayWidth == 3)
    }
}

/// The wrapping algorithm as it read before the byte walk: pieces end after spaces or `(` `,` `.`;
/// a piece wider than a line breaks at the last identifier boundary that fits.
private enum ReferenceWrap {
    static func wrap(_ text: [Unicode.Scalar], width: Int) -> [String] {
        if text.reduce(0, { $0 + $1.standaloneDisplayWidth }) <= width {
            return [String(String.UnicodeScalarView(text))]
        }
        var lines: [String] = []
        var line: [Unicode.Scalar] = []
        var lineWidth = 0
        var pendingSpaces = 0
        func flush() {
            lines.append(String(String.UnicodeScalarView(line)))
            line.removeAll()
            lineWidth = 0
            pendingSpaces = 0
        }
        var start = 0
        while start < text.count {
            var end = start
            while end < text.count {
                let unit = text[end]
                end += 1
                if unit == " " || unit == "(" || unit == "," || unit == "." {
                    while end < text.count && text[end] == " " { end += 1 }
                    break
                }
            }
            var trimmedEnd = end
            while trimmedEnd > start && text[trimmedEnd - 1] == " " { trimmedEnd -= 1 }
            let spaces = end - trimmedEnd
            let pieceWidth = text[start..<trimmedEnd].reduce(0) { $0 + $1.standaloneDisplayWidth }
            if !line.isEmpty && lineWidth + pendingSpaces + pieceWidth > width { flush() }
            if line.isEmpty { pendingSpaces = 0 }
            line.append(contentsOf: repeatElement(" ", count: pendingSpaces))
            lineWidth += pendingSpaces
            if pieceWidth > width - lineWidth {
                var index = start
                while index < trimmedEnd {
                    var fitEnd = index
                    var fitWidth = lineWidth
                    while fitEnd < trimmedEnd && fitWidth + text[fitEnd].standaloneDisplayWidth <= width {
                        fitWidth += text[fitEnd].standaloneDisplayWidth
                        fitEnd += 1
                    }
                    if fitEnd == trimmedEnd {
                        line.append(contentsOf: text[index..<trimmedEnd])
                        lineWidth = fitWidth
                        break
                    }
                    if fitEnd == index {
                        if !line.isEmpty {
                            flush()
                            continue
                        }
                        fitEnd = index + 1
                        fitWidth += text[index].standaloneDisplayWidth
                    }
                    var cut = fitEnd
                    var candidate = fitEnd
                    while candidate > index + 1 {
                        if isBoundary(text[candidate - 1], text[candidate]) {
                            cut = candidate
                            break
                        }
                        candidate -= 1
                    }
                    line.append(contentsOf: text[index..<cut])
                    flush()
                    index = cut
                }
            } else {
                line.append(contentsOf: text[start..<trimmedEnd])
                lineWidth += pieceWidth
            }
            pendingSpaces = spaces
            start = end
        }
        if !line.isEmpty || lines.isEmpty { flush() }
        return lines
    }

    private static func isBoundary(_ previous: Unicode.Scalar, _ next: Unicode.Scalar) -> Bool {
        if (previous.properties.isLowercase || previous.properties.numericType != nil) && next.properties.isUppercase {
            return true
        }
        return previous == "_" || previous == "-" || previous == "/" || previous == ":"
    }
}
