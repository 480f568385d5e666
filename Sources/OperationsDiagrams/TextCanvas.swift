import Operations

/// A grid of cells that the text renderer paints row by row and writes out as it goes.
///
/// The painter never goes back to the rows of a finished step, so it calls ``flush()`` after
/// each step: those rows are written out and dropped. The canvas holds a step's rows, not the
/// whole drawing, whatever the trace's length.
struct TextCanvas {
    /// What one column of a row shows. A plain value: a grapheme other than printable ASCII
    /// waits in `graphemes` until its row is written out.
    private enum Cell: Equatable {
        case blank
        case glyph(Glyph)
        case ascii(UInt8)
        case grapheme(Int)
        /// The second column of a wide grapheme: written out as nothing.
        case wideTail
    }

    let width: Int
    let charset: DiagramCharset
    /// The UTF-8 of each glyph in the charset, by its raw value.
    private let spellings: [[UInt8]]
    /// The rows not yet written out, from `firstRow` on, `width` cells each.
    private var cells: [Cell] = []
    private var graphemes: [Character] = []
    /// The index of the first row still in `cells`.
    private var firstRow = 0
    private var written: [UInt8] = []

    init(width: Int, charset: DiagramCharset) {
        self.width = width
        self.charset = charset
        spellings = Glyph.allCases.map { Array($0.spelled(in: charset).utf8) }
    }

    /// Appends a blank row and returns its index.
    mutating func addRow() -> Int {
        cells.append(contentsOf: repeatElement(.blank, count: width))
        return firstRow + cells.count / width - 1
    }

    func isBlank(_ row: Int, _ column: Int) -> Bool { cell(row, column).map { $0 == .blank } ?? true }

    /// Whether a cell holds a lifeline or a bar's side, which a frame's edge crosses.
    func isLine(_ row: Int, _ column: Int) -> Bool { cell(row, column) == .glyph(.vertical) }

    /// A cell of a row not yet written out; `nil` outside the canvas.
    private func cell(_ row: Int, _ column: Int) -> Cell? {
        column >= 0 && column < width ? cells[(row - firstRow) * width + column] : nil
    }

    /// Blanks a cell, e.g. around text set into a rule.
    mutating func clear(_ row: Int, _ column: Int) {
        guard column >= 0, column < width else { return }
        cells[(row - firstRow) * width + column] = .blank
    }

    mutating func put(_ glyph: Glyph, _ row: Int, _ column: Int) {
        guard column >= 0, column < width else {
            assertionFailure("glyph outside the canvas at column \(column) of \(width)")
            return
        }
        cells[(row - firstRow) * width + column] = .glyph(glyph)
    }

    mutating func put(_ glyph: Glyph, _ row: Int, from start: Int, through end: Int) {
        guard start <= end else { return }
        for column in start...end { put(glyph, row, column) }
    }

    /// Writes text starting at a column; the caller has measured that it fits. In the ASCII
    /// charset a non-ASCII grapheme becomes its ``ASCIIFallback`` of the same width.
    mutating func put(text: String, _ row: Int, _ column: Int) {
        let rowStart = (row - firstRow) * width
        if text.isPrintableASCII {
            guard column >= 0, column + text.utf8.count <= width else {
                assertionFailure("text outside the canvas at column \(column) of \(width)")
                return
            }
            for (offset, byte) in text.utf8.enumerated() { cells[rowStart + column + offset] = .ascii(byte) }
            return
        }
        var position = column
        for character in text {
            let width = character.displayWidth
            guard width > 0 else { continue }
            guard position >= 0, position + width <= self.width else {
                assertionFailure("text outside the canvas at column \(position) of \(self.width)")
                return
            }
            if let ascii = character.asciiValue {
                cells[rowStart + position] = .ascii(ascii)
            } else if charset == .ascii {
                for (offset, byte) in ASCIIFallback.bytes(for: character, width: width).enumerated() {
                    cells[rowStart + position + offset] = .ascii(byte)
                }
            } else {
                cells[rowStart + position] = .grapheme(graphemes.count)
                graphemes.append(character)
                if width == 2 { cells[rowStart + position + 1] = .wideTail }
            }
            position += width
        }
    }

    /// Writes out every row painted so far (`\n` after each, no trailing spaces) and drops
    /// them; later rows keep their indices.
    mutating func flush() {
        for rowStart in stride(from: 0, to: cells.count, by: width) {
            var end = rowStart + width
            while end > rowStart, cells[end - 1] == .blank { end -= 1 }
            for cell in cells[rowStart..<end] {
                switch cell {
                case .blank: written.append(0x20)
                case .glyph(let glyph): written += spellings[Int(glyph.rawValue)]
                case .ascii(let byte): written.append(byte)
                case .grapheme(let index): written += graphemes[index].utf8
                case .wideTail: break
                }
            }
            written.append(0x0A)
        }
        firstRow += cells.count / width
        cells.removeAll(keepingCapacity: true)
        graphemes.removeAll(keepingCapacity: true)
    }

    /// The finished drawing: `\n` after every row, no trailing spaces.
    mutating func output() -> String {
        flush()
        return String(decoding: written, as: UTF8.self)
    }
}
