import Operations

/// A label measured once for fitting: the widths of the pieces wrapping may not split.
///
/// Fitting tries many widths per label; it answers "how wide would it wrap at this width, and
/// how badly" from these numbers instead of wrapping the text again. The pieces are those of
/// ``LabelWrapper/pieces(of:)``, so a label that needs no hard break wraps exactly as wide as
/// ``wrappedWidth(_:)`` says; with a hard break the estimate errs on the wide side.
struct MeasuredLabel {
    /// One piece: its width without trailing spaces, its trailing spaces, and whether it ends in
    /// punctuation (a hard break right before that is not mid-word).
    private struct Piece {
        var width = 0
        var spaces = 0
        var endsInPunctuation = false
    }

    private var pieces: [Piece] = []
    /// The text on one line.
    private(set) var natural = 0
    /// The widest piece.
    private(set) var longest = 0
    /// The widest word: a piece split where an identifier's words meet (`verification` |
    /// `Request`, `on` | `Finish(`, after `_`, `-`, `/`, `:`), as a hard break prefers.
    private(set) var longestWord = 0

    /// Measures `text` (sanitized) in one pass.
    init(_ text: String) {
        if text.isPrintableASCII { measure(text.utf8) } else { measure(Array(text)) }
    }

    private mutating func measure<Text: Collection>(_ text: Text) where Text.Element: TextUnit {
        for range in LabelWrapper.pieces(of: text) {
            var measured = Piece()
            var word = 0
            var previous: Text.Element?
            for unit in text[range] {
                let width = unit.columns
                natural += width
                if unit.isSpace {
                    measured.spaces += 1
                    continue
                }
                if let previous, Text.Element.isWordBoundary(previous, unit) { word = 0 }
                word += width
                longestWord = max(longestWord, word)
                measured.width += width
                previous = unit
            }
            measured.endsInPunctuation = previous?.isPunctuation ?? false
            longest = max(longest, measured.width)
            pieces.append(measured)
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
            if lineWidth > 0 && lineWidth + pending + piece.width > width {
                widest = max(widest, lineWidth)
                lineWidth = 0
            }
            if lineWidth == 0 { pending = 0 }
            if piece.width > width - lineWidth - pending {
                widest = width
                let remainder = piece.width % width
                lineWidth = remainder == 0 ? width : remainder
            } else {
                lineWidth += pending + piece.width
            }
            pending = piece.spaces
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
        for (index, piece) in pieces.enumerated() where piece.width > width {
            let remainder = piece.width % width
            var breaks = piece.width / width - (remainder == 0 ? 1 : 0)
            if remainder == 1 && piece.endsInPunctuation {
                // The punctuation moves to the next line: not a break inside a word, but alone on
                // its line if nothing follows it.
                breaks -= 1
                if index == pieces.count - 1 { harm += 2 }
            }
            harm += Double(breaks) * (1 + 1 - Double(width) / Double(piece.width))
        }
        return harm
    }
}
