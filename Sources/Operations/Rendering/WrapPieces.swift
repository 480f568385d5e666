/// A label measured once for fitting: the widths of the pieces wrapping may not split.
///
/// Fitting tries many widths per label; answering "how wide would it wrap at this width, and how
/// badly" from these numbers, instead of wrapping the text again, keeps rendering linear with a
/// small constant. It mirrors ``LabelWrapper/wrap(_:width:maxLines:)`` exactly for ASCII text and
/// errs on the wide side for wide characters.
struct WrapPieces {
    /// One piece: its width without trailing spaces, its trailing spaces, and whether it ends in
    /// punctuation (a hard break right before that is not mid-word).
    private struct Piece {
        var width: Int32
        var spaces: Int32
        var endsInPunctuation: Bool
    }

    private var pieces: [Piece] = []
    /// The text on one line.
    let natural: Int
    /// The widest piece.
    let longest: Int

    /// Measures the pieces of ``LabelWrapper/pieces(of:)`` in one pass over the text: a piece
    /// ends after a run of spaces, or after `(`, `,` or `.` and the spaces that follow. Text of
    /// ASCII and standalone scalars (``TextScan``) is read over its UTF-8, a scalar at a time;
    /// other text character by character. No substring is made.
    init(_ text: String) {
        if let scanned = text.utf8.withContiguousStorageIfAvailable(Self.scanScalars), let scan = scanned {
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

    /// The measuring pass over UTF-8 whose scalars are each a character; `nil` when one is not.
    private static func scanScalars(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan<Unicode.Scalar>? {
        var scan = Scan<Unicode.Scalar> {
            $0.isASCII ? WrapPieces.asciiPunctuation[Int($0.value)] : Character($0).isPunctuation
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard byte >= 0x20 && byte != 0x7F else { return nil }
                scan.add(
                    Unicode.Scalar(byte), isSpace: byte == 0x20,
                    isBreak: byte == UInt8(ascii: "(") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "."),
                    width: 1)
                index += 1
            } else {
                guard let (scalar, length) = TextScan.decode(bytes, at: index), scalar.isStandaloneGrapheme else {
                    return nil
                }
                scan.add(scalar, isSpace: false, isBreak: false, width: scalar.standaloneDisplayWidth)
                index += length
            }
        }
        return scan
    }

    private init<Unit>(_ scan: Scan<Unit>) {
        var scan = scan
        scan.end()
        pieces = scan.pieces
        natural = scan.natural
        longest = Int(scan.pieces.lazy.map(\.width).max() ?? 0)
    }

    /// Which ASCII bytes are punctuation (`Character.isPunctuation`), by byte value.
    private static let asciiPunctuation: [Bool] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))).isPunctuation }

    /// The running state of the measuring pass.
    private struct Scan<Unit> {
        /// Whether a unit is punctuation; asked once per piece, of its last non-space unit.
        let isPunctuation: (Unit) -> Bool
        var pieces: [Piece] = []
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
            // Most labels have a handful of pieces: one allocation, not one per doubling.
            pieces.reserveCapacity(8)
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
            pieces.append(
                Piece(
                    width: Int32(truncatingIfNeeded: width), spaces: Int32(truncatingIfNeeded: trailing),
                    endsInPunctuation: last.map(isPunctuation) ?? false))
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
        for piece in pieces {
            let pieceWidth = Int(piece.width)
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
            pending = Int(piece.spaces)
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
        for index in pieces.indices where Int(pieces[index].width) > width {
            let pieceWidth = Int(pieces[index].width)
            let remainder = pieceWidth % width
            var breaks = pieceWidth / width - (remainder == 0 ? 1 : 0)
            if remainder == 1 && pieces[index].endsInPunctuation {
                // The punctuation moves to the next line: not a break inside a word, but alone on
                // its line if nothing follows it.
                breaks -= 1
                if index == pieces.count - 1 { harm += 2 }
            }
            harm += Double(breaks) * (1 + 1 - Double(width) / Double(pieceWidth))
        }
        return harm
    }
}
