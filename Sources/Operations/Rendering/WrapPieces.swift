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

    init(_ text: String) {
        for piece in LabelWrapper.pieces(of: text) {
            var trimmed = piece
            while trimmed.last == " " { trimmed = trimmed.dropLast() }
            widths.append(trimmed.displayWidth)
            spaces.append(piece.count - trimmed.count)
            endsInPunctuation.append(trimmed.last.map { $0.isPunctuation } ?? false)
        }
        natural = text.displayWidth
        longest = widths.max() ?? 0
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
