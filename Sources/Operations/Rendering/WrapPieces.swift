/// A label measured once for fitting: the widths of the pieces wrapping may not split.
///
/// Fitting tries many widths per label; answering "how wide would it wrap at this width, and how
/// badly" from these numbers, instead of wrapping the text again, keeps rendering linear with a
/// small constant. It mirrors ``LabelWrapper/wrap(_:width:maxLines:)`` exactly for ASCII text and
/// errs on the wide side for wide characters.
struct WrapPieces {
    /// Width of each piece without its trailing spaces.
    private var widths: [Int] = []
    /// Trailing spaces of each piece.
    private var spaces: [Int] = []
    /// Whether each piece ends in punctuation (a hard break right before it is not mid-word).
    private var endsInPunctuation: [Bool] = []
    /// The text on one line.
    let natural: Int
    /// The widest piece.
    let longest: Int

    /// Measures the pieces of ``LabelWrapper/pieces(of:)`` in one pass over the text: a piece
    /// ends after a run of spaces, or after `(`, `,` or `.` and the spaces that follow. ASCII
    /// text is read byte by byte (every byte a grapheme of width 1); other text character by
    /// character. No substring is made.
    init(_ text: String) {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            var scan = Scan<UInt8> { WrapPieces.asciiPunctuation[Int($0)] }
            for byte in utf8 {
                scan.add(
                    byte, isSpace: byte == 0x20,
                    isBreak: byte == UInt8(ascii: "(") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "."),
                    width: 1)
            }
            self.init(scan)
        } else if text.unicodeScalars.allSatisfy(\.isStandaloneGrapheme) {
            // Every scalar is a character of its own: the same pass over scalars.
            var scan = Scan<Unicode.Scalar> { Character($0).isPunctuation }
            for scalar in text.unicodeScalars {
                scan.add(
                    scalar, isSpace: scalar == " ", isBreak: scalar == "(" || scalar == "," || scalar == ".",
                    width: scalar.standaloneDisplayWidth)
            }
            self.init(scan)
        } else {
            var scan = Scan<Character> { $0.isPunctuation }
            for character in text {
                scan.add(
                    character, isSpace: character == " ",
                    isBreak: character == "(" || character == "," || character == ".", width: character.displayWidth)
            }
            self.init(scan)
        }
    }

    private init<Unit>(_ scan: Scan<Unit>) {
        var scan = scan
        scan.end()
        widths = scan.widths
        spaces = scan.spaces
        endsInPunctuation = scan.endsInPunctuation
        natural = scan.natural
        longest = widths.max() ?? 0
    }

    /// Which ASCII bytes are punctuation (`Character.isPunctuation`), by byte value.
    private static let asciiPunctuation: [Bool] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))).isPunctuation }

    /// The running state of the measuring pass.
    private struct Scan<Unit> {
        /// Whether a unit is punctuation; asked once per piece, of its last non-space unit.
        let isPunctuation: (Unit) -> Bool
        var widths: [Int] = []
        var spaces: [Int] = []
        var endsInPunctuation: [Bool] = []
        var natural = 0
        /// The current piece: its width without trailing spaces, its trailing spaces, its last
        /// non-space unit, whether it has begun.
        private var width = 0
        private var trailing = 0
        private var last: Unit?
        private var started = false
        /// A space or a break character was seen: the next non-space character starts a piece.
        private var closed = false

        init(isPunctuation: @escaping (Unit) -> Bool) {
            self.isPunctuation = isPunctuation
        }

        mutating func add(_ unit: Unit, isSpace: Bool, isBreak: Bool, width: Int) {
            natural += width
            if isSpace {
                trailing += 1
                started = true
                closed = true
                return
            }
            if closed { emit() }
            started = true
            self.width += width
            last = unit
            if isBreak { closed = true }
        }

        mutating func end() {
            if started { emit() }
        }

        private mutating func emit() {
            widths.append(width)
            spaces.append(trailing)
            endsInPunctuation.append(last.map(isPunctuation) ?? false)
            width = 0
            trailing = 0
            last = nil
            started = false
            closed = false
        }
    }

    /// The widest line the label wraps to at `width`.
    func wrappedWidth(_ width: Int) -> Int {
        let width = max(width, 1)
        if natural <= width { return natural }
        var widest = 0
        var lineWidth = 0
        var pending = 0
        for index in widths.indices {
            let pieceWidth = widths[index]
            if lineWidth > 0 && lineWidth + pending + pieceWidth > width {
                widest = max(widest, lineWidth)
                lineWidth = 0
            }
            if lineWidth == 0 { pending = 0 }
            if pieceWidth > width - lineWidth - pending {
                widest = width
                let remainder = pieceWidth % width
                lineWidth = remainder == 0 ? width : remainder
            } else {
                lineWidth += pending + pieceWidth
            }
            pending = spaces[index]
        }
        return max(widest, lineWidth)
    }

    /// How badly wrapping at `width` breaks the label: breaks at spaces and after punctuation
    /// cost nothing, each hard break inside a word about 1 (less in a long token cut near its end
    /// than in a short word), a line left holding only punctuation 2.
    func harm(_ width: Int) -> Double {
        let width = max(width, 1)
        guard longest > width else { return 0 }
        var harm = 0.0
        for index in widths.indices where widths[index] > width {
            let pieceWidth = widths[index]
            let remainder = pieceWidth % width
            var breaks = pieceWidth / width - (remainder == 0 ? 1 : 0)
            if remainder == 1 && endsInPunctuation[index] {
                // The punctuation moves to the next line: not a break inside a word, but alone on
                // its line if nothing follows it.
                breaks -= 1
                if index == widths.count - 1 { harm += 2 }
            }
            harm += Double(breaks) * (1 + 1 - Double(width) / Double(pieceWidth))
        }
        return harm
    }
}
