import Operations

/// Labels measured once for fitting: for each, the widths of the pieces wrapping may not split.
///
/// Fitting tries many widths per label; answering "how wide would it wrap at this width, and how
/// badly" from these numbers, instead of wrapping the text again, keeps rendering linear with a
/// small constant. It mirrors ``LabelWrapper/wrap(_:width:maxLines:)`` exactly for ASCII text and
/// errs on the wide side for wide characters.
///
/// Every label's pieces live in one array, in the order measured: fitting reads the labels of a
/// gap again on every column it narrows, and one allocation per label scattered them over the
/// heap (a cache miss per label per column, a tenth of a 10,000-message render).
struct WrapPieces {
    /// One piece: its width without trailing spaces, its trailing spaces, and whether it ends in
    /// punctuation (a hard break right before that is not mid-word).
    private struct Piece {
        var width: Int32
        var spaces: Int32
        var endsInPunctuation: Bool
    }

    /// A measured label: where its pieces are, its width on one line, its widest piece and
    /// its widest word. Twenty bytes, so that fitting can keep it beside the slot that reads it.
    struct Label {
        fileprivate let start: Int32
        fileprivate let end: Int32
        private let naturalWidth: Int32
        private let longestPiece: Int32
        private let longestWordWidth: Int32

        fileprivate init(start: Int, end: Int, natural: Int, longest: Int, longestWord: Int) {
            self.start = Int32(truncatingIfNeeded: start)
            self.end = Int32(truncatingIfNeeded: end)
            naturalWidth = Int32(truncatingIfNeeded: natural)
            longestPiece = Int32(truncatingIfNeeded: longest)
            longestWordWidth = Int32(truncatingIfNeeded: longestWord)
        }

        /// The text on one line.
        var natural: Int { Int(naturalWidth) }
        /// The widest piece.
        var longest: Int { Int(longestPiece) }
        /// The widest word: a piece split where an identifier's words meet (`verification` |
        /// `Request`, `on` | `Finish(`, after `_`, `-`, `/`, `:`), as a hard break prefers.
        var longestWord: Int { Int(longestWordWidth) }
    }

    private var pieces: [Piece] = []

    /// An empty table, with room for about `labels` labels.
    init(reservingCapacityFor labels: Int = 0) {
        pieces.reserveCapacity(labels * 4)
    }

    /// Measures the pieces of ``LabelWrapper/pieces(of:)`` in one pass over the text: a piece
    /// ends after a run of spaces, or after `(`, `,` or `.` and the spaces that follow. Text of
    /// ASCII and standalone scalars (``TextScan``) is read over its UTF-8, a scalar at a time;
    /// other text character by character. No substring is made.
    mutating func measure(_ text: String) -> Label {
        let start = pieces.count
        var natural: Int
        var longestWord: Int
        if let (width, word) = Self.scanScalars(Array(text.utf8), into: &pieces) {
            natural = width
            longestWord = word
        } else {
            pieces.removeSubrange(start...)
            var scan = Scan<Character>(
                isPunctuation: { $0.isPunctuation },
                isWordBoundary: { previous, next in
                    guard let before = previous.unicodeScalars.last, let after = next.unicodeScalars.first else {
                        return false
                    }
                    return LabelWrapper.scalarBoundary(before, after)
                })
            for character in text {
                scan.add(
                    character, isSpace: character == " ",
                    isBreak: character == "(" || character == "," || character == ".", width: character.displayWidth,
                    into: &pieces)
            }
            scan.end(into: &pieces)
            natural = scan.natural
            longestWord = scan.longestWord
        }
        let longest = pieces[start...].lazy.map(\.width).max() ?? 0
        return Label(
            start: start, end: pieces.count, natural: natural, longest: Int(longest),
            longestWord: min(longestWord, Int(longest)))
    }

    /// The measuring pass over UTF-8 whose scalars are each a character, appending the pieces;
    /// the label's natural width and widest word, or `nil` when a scalar is not a character
    /// (the caller drops what was appended).
    private static func scanScalars(_ bytes: [UInt8], into pieces: inout [Piece]) -> (Int, Int)? {
        var scan = Scan<Unicode.Scalar>(
            isPunctuation: { $0.isASCII ? WrapPieces.asciiPunctuation[Int($0.value)] : Character($0).isPunctuation },
            isWordBoundary: { previous, next in
                if previous.isASCII && next.isASCII {
                    return LabelWrapper.asciiBoundary(UInt8(previous.value), UInt8(next.value))
                }
                return LabelWrapper.scalarBoundary(previous, next)
            })
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard byte >= 0x20 && byte != 0x7F else { return nil }
                scan.add(
                    Unicode.Scalar(byte), isSpace: byte == 0x20,
                    isBreak: byte == UInt8(ascii: "(") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "."),
                    width: 1, into: &pieces)
                index += 1
            } else {
                guard let (scalar, length) = TextScan.decode(bytes, at: index), scalar.isStandaloneGrapheme else {
                    return nil
                }
                scan.add(scalar, isSpace: false, isBreak: false, width: scalar.standaloneDisplayWidth, into: &pieces)
                index += length
            }
        }
        scan.end(into: &pieces)
        return (scan.natural, scan.longestWord)
    }

    /// Which ASCII bytes are punctuation (`Character.isPunctuation`), by byte value.
    private static let asciiPunctuation: [Bool] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))).isPunctuation }

    /// The running state of the measuring pass.
    private struct Scan<Unit> {
        /// Whether a unit is punctuation; asked once per piece, of its last non-space unit.
        let isPunctuation: (Unit) -> Bool
        /// Whether a hard break between two units falls where an identifier's words meet.
        let isWordBoundary: (Unit, Unit) -> Bool
        var natural = 0
        /// The widest word seen (``Label/longestWord``), and the width of the current one.
        private(set) var longestWord = 0
        private var word = 0
        /// The current piece: its width without trailing spaces, its trailing spaces, its last
        /// non-space unit, whether it has begun.
        private var width = 0
        private var trailing = 0
        private var last: Unit?
        private var started = false
        /// A space or a break character was seen: the next non-space character starts a piece.
        private var closed = false

        init(isPunctuation: @escaping (Unit) -> Bool, isWordBoundary: @escaping (Unit, Unit) -> Bool) {
            self.isPunctuation = isPunctuation
            self.isWordBoundary = isWordBoundary
        }

        mutating func add(_ unit: Unit, isSpace: Bool, isBreak: Bool, width: Int, into pieces: inout [Piece]) {
            natural += width
            if isSpace {
                trailing += 1
                started = true
                closed = true
                return
            }
            if closed { emit(into: &pieces) }
            if let last, isWordBoundary(last, unit) { word = 0 }
            word += width
            longestWord = max(longestWord, word)
            started = true
            self.width += width
            last = unit
            if isBreak { closed = true }
        }

        mutating func end(into pieces: inout [Piece]) {
            if started { emit(into: &pieces) }
        }

        private mutating func emit(into pieces: inout [Piece]) {
            pieces.append(
                Piece(
                    width: Int32(truncatingIfNeeded: width), spaces: Int32(truncatingIfNeeded: trailing),
                    endsInPunctuation: last.map(isPunctuation) ?? false))
            width = 0
            trailing = 0
            last = nil
            word = 0
            started = false
            closed = false
        }
    }

    /// The widest line the label wraps to at `width`.
    func wrappedWidth(_ label: Label, _ width: Int) -> Int {
        let width = max(width, 1)
        if label.natural <= width { return label.natural }
        var widest = 0
        var lineWidth = 0
        var pending = 0
        for piece in pieces[Int(label.start)..<Int(label.end)] {
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
    func harm(_ label: Label, _ width: Int) -> Double {
        let width = max(width, 1)
        guard label.longest > width else { return 0 }
        var harm = 0.0
        let last = Int(label.end) - 1
        for index in Int(label.start)..<Int(label.end) where Int(pieces[index].width) > width {
            let pieceWidth = Int(pieces[index].width)
            let remainder = pieceWidth % width
            var breaks = pieceWidth / width - (remainder == 0 ? 1 : 0)
            if remainder == 1 && pieces[index].endsInPunctuation {
                // The punctuation moves to the next line: not a break inside a word, but alone on
                // its line if nothing follows it.
                breaks -= 1
                if index == last { harm += 2 }
            }
            harm += Double(breaks) * (1 + 1 - Double(width) / Double(pieceWidth))
        }
        return harm
    }
}
