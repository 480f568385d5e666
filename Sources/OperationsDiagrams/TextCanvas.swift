import Operations

/// A grid of cells that the text renderer paints row by row and writes out as it goes.
///
/// The painter never goes back to the rows of a finished step, so it calls ``flush()`` after
/// each step: those rows are written out and dropped. The canvas holds a step's rows, not the
/// whole drawing, whatever the trace's length.
struct TextCanvas {
    /// What one column of a row shows.
    private enum Cell {
        case blank
        case glyph(Glyph)
        case text(Character)
        /// The second column of a wide grapheme: written out as nothing.
        case wideTail
    }

    let width: Int
    let charset: DiagramCharset
    /// The rows not yet written out, from `firstRow` on.
    private var rows: [[Cell]] = []
    /// The index of the first row still in `rows`.
    private var firstRow = 0
    /// The rows written out so far.
    private var drawing = ""

    init(width: Int, charset: DiagramCharset) {
        self.width = width
        self.charset = charset
    }

    /// Appends a blank row and returns its index.
    mutating func addRow() -> Int {
        rows.append(Array(repeating: .blank, count: width))
        return firstRow + rows.count - 1
    }

    func isBlank(_ row: Int, _ column: Int) -> Bool {
        guard column >= 0, column < width else { return true }
        if case .blank = rows[row - firstRow][column] { return true }
        return false
    }

    /// Whether a cell holds a lifeline or a bar's side, which a frame's edge crosses.
    func isLine(_ row: Int, _ column: Int) -> Bool {
        guard column >= 0, column < width, case .glyph(.vertical) = rows[row - firstRow][column] else { return false }
        return true
    }

    /// Blanks a cell, e.g. around text set into a rule.
    mutating func clear(_ row: Int, _ column: Int) {
        guard column >= 0, column < width else { return }
        rows[row - firstRow][column] = .blank
    }

    mutating func put(_ glyph: Glyph, _ row: Int, _ column: Int) {
        guard column >= 0, column < width else {
            assertionFailure("glyph outside the canvas at column \(column) of \(width)")
            return
        }
        rows[row - firstRow][column] = .glyph(glyph)
    }

    mutating func put(_ glyph: Glyph, _ row: Int, from start: Int, through end: Int) {
        guard start <= end else { return }
        for column in start...end { put(glyph, row, column) }
    }

    /// Writes text starting at a column; the caller has measured that it fits. In the ASCII
    /// charset a non-ASCII grapheme becomes its ``ASCIIFallback`` of the same width.
    mutating func put(text: String, _ row: Int, _ column: Int) {
        var position = column
        for character in text {
            let width = character.displayWidth
            guard width > 0 else { continue }
            guard position >= 0, position + width <= self.width else {
                assertionFailure("text outside the canvas at column \(position) of \(self.width)")
                return
            }
            if charset == .ascii && !character.isASCII {
                for (offset, byte) in ASCIIFallback.bytes(for: character, width: width).enumerated() {
                    rows[row - firstRow][position + offset] = .text(Character(Unicode.Scalar(byte)))
                }
            } else {
                rows[row - firstRow][position] = .text(character)
                if width == 2 { rows[row - firstRow][position + 1] = .wideTail }
            }
            position += width
        }
    }

    /// Writes out every row painted so far (`\n` after each, no trailing spaces) and drops
    /// them; later rows keep their indices.
    mutating func flush() {
        for row in rows {
            var end = row.count
            while end > 0, case .blank = row[end - 1] { end -= 1 }
            for cell in row[..<end] {
                switch cell {
                case .blank: drawing.append(" ")
                case .glyph(let glyph): drawing += glyph.spelled(in: charset)
                case .text(let character): drawing.append(character)
                case .wideTail: break
                }
            }
            drawing.append("\n")
        }
        firstRow += rows.count
        rows.removeAll(keepingCapacity: true)
    }

    /// The finished drawing: `\n` after every row, no trailing spaces.
    mutating func output() -> String {
        flush()
        return drawing
    }
}
