import Foundation

/// A grid of cells that the text renderer paints row by row and writes out as it goes.
///
/// Cells are small codes rather than `Character`s so that painting and output stay cheap for big
/// traces: a code below 0x80 is that ASCII byte, 0x80... are ``Glyph``s, 0x100... index text
/// graphemes kept in a table, and ``wideTail`` marks the second column of a wide grapheme.
///
/// The painter never goes back to the rows of a finished step, so it calls ``flush()`` after
/// each step: those rows are written out as UTF-8 and dropped. The canvas holds a step's rows,
/// not the whole drawing, whatever the trace's length (a 100,000-message trace would otherwise
/// keep ~180 MB of cells, and rendering it would run out of cache).
struct TextCanvas {
    static let blank: UInt32 = 0x20
    static let wideTail: UInt32 = 0xFFFF_FFFF
    private static let glyphBase: UInt32 = 0x80
    private static let textBase: UInt32 = 0x100

    let width: Int
    let charset: DiagramCharset
    /// The rows not yet written out, from ``firstRow`` on.
    private var cells: [UInt32] = []
    /// The index of the first row still in `cells`.
    private var firstRow = 0
    private var textCodes: [String: UInt32] = [:]
    /// One blank row, copied (one `memcpy`) for every new row.
    private let blankRow: [UInt32]
    /// The UTF-8 of every code at or above `glyphBase`: glyphs, then text graphemes in code
    /// order, as offsets into one flat table.
    private var spelled: [UInt8] = []
    private var starts: [Int] = []
    private var lengths: [Int] = []
    private let glyphCount: Int
    /// The drawing written so far.
    private var written: [UInt8] = []

    init(width: Int, charset: DiagramCharset) {
        self.width = width
        self.charset = charset
        blankRow = Array(repeating: Self.blank, count: width)
        for glyph in Glyph.allCases {
            starts.append(spelled.count)
            spelled.append(contentsOf: glyph.spelled(in: charset).utf8)
            lengths.append(spelled.count - starts[starts.count - 1])
        }
        glyphCount = starts.count
    }

    var rowCount: Int { firstRow + cells.count / max(width, 1) }

    /// Appends a blank row and returns its index.
    mutating func addRow() -> Int {
        cells.append(contentsOf: blankRow)
        return rowCount - 1
    }

    func isBlank(_ row: Int, _ column: Int) -> Bool {
        guard column >= 0, column < width else { return true }
        return cells[(row - firstRow) * width + column] == Self.blank
    }

    /// Whether a cell holds a lifeline or a bar's side, which a frame's edge crosses.
    func isLine(_ row: Int, _ column: Int) -> Bool {
        guard column >= 0, column < width else { return false }
        return cells[(row - firstRow) * width + column] == Self.glyphBase + UInt32(Glyph.vertical.rawValue)
    }

    /// Blanks a cell, e.g. around text set into a rule.
    mutating func clear(_ row: Int, _ column: Int) {
        guard column >= 0, column < width else { return }
        cells[(row - firstRow) * width + column] = Self.blank
    }

    mutating func put(_ glyph: Glyph, _ row: Int, _ column: Int) {
        guard column >= 0, column < width else {
            assertionFailure("glyph outside the canvas at column \(column) of \(width)")
            return
        }
        cells[(row - firstRow) * width + column] = Self.glyphBase + UInt32(glyph.rawValue)
    }

    mutating func put(_ glyph: Glyph, _ row: Int, from start: Int, through end: Int) {
        guard start <= end else { return }
        for column in start...end { put(glyph, row, column) }
    }

    /// Writes text starting at a column; the caller has measured that it fits.
    mutating func put(text: String, _ row: Int, _ column: Int) {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            guard column >= 0, column + utf8.count <= width else {
                assertionFailure("text outside the canvas at column \(column) of \(width)")
                return
            }
            var index = (row - firstRow) * width + column
            for byte in utf8 {
                cells[index] = UInt32(byte)
                index += 1
            }
            return
        }
        if text.unicodeScalars.allSatisfy(\.isStandaloneGrapheme) {
            // Every scalar is a character of its own: the loop below, without segmenting.
            var position = column
            for scalar in text.unicodeScalars {
                let width = scalar.standaloneDisplayWidth
                guard width > 0 else { continue }
                guard position + width <= self.width else {
                    assertionFailure("text outside the canvas at column \(position) of \(self.width)")
                    return
                }
                let base = (row - firstRow) * self.width + position
                if scalar.isASCII {
                    cells[base] = scalar.value
                } else {
                    put(Character(scalar), width: width, at: base)
                }
                position += width
            }
            return
        }
        var position = column
        for character in text {
            let width = character.displayWidth
            guard width > 0 else { continue }
            guard position + width <= self.width else {
                assertionFailure("text outside the canvas at column \(position) of \(self.width)")
                return
            }
            let base = (row - firstRow) * self.width + position
            if let ascii = character.asciiValue {
                cells[base] = UInt32(ascii)
            } else {
                put(character, width: width, at: base)
            }
            position += width
        }
    }

    /// Writes one non-ASCII grapheme of `width` columns at cell `base`.
    private mutating func put(_ character: Character, width: Int, at base: Int) {
        if charset == .ascii {
            for (offset, byte) in ASCIIFallback.bytes(for: character, width: width).enumerated() {
                cells[base + offset] = UInt32(byte)
            }
        } else {
            cells[base] = code(for: character)
            if width == 2 { cells[base + 1] = Self.wideTail }
        }
    }

    private mutating func code(for character: Character) -> UInt32 {
        let text = String(character)
        if let code = textCodes[text] { return code }
        let code = Self.textBase + UInt32(starts.count - glyphCount)
        starts.append(spelled.count)
        spelled.append(contentsOf: text.utf8)
        lengths.append(spelled.count - starts[starts.count - 1])
        textCodes[text] = code
        return code
    }

    /// Writes out every row painted so far (`\n` after each, no trailing spaces) and drops
    /// them; later rows keep their indices.
    mutating func flush() {
        let rows = cells.count / max(width, 1)
        guard rows > 0 else { return }
        let width = width
        let glyphCount = glyphCount
        // A cell's code as an index into the spelling table.
        func entry(_ code: UInt32) -> Int {
            code < Self.textBase ? Int(code - Self.glyphBase) : glyphCount + Int(code - Self.textBase)
        }
        // Room for every cell at its longest spelling, grown geometrically, then written
        // through a pointer and trimmed: no capacity check per byte.
        let base = written.count
        let room = rows * (width * (lengths.max() ?? 1) + 1)
        if written.capacity < base + room { written.reserveCapacity(max(base + room, written.capacity * 2)) }
        written.append(contentsOf: repeatElement(0, count: room))
        var position = base
        cells.withUnsafeBufferPointer { cells in
            spelled.withUnsafeBufferPointer { spelled in
                written.withUnsafeMutableBufferPointer { buffer in
                    for row in 0..<rows {
                        let start = row * width
                        var end = start + width
                        while end > start && cells[end - 1] == Self.blank { end -= 1 }
                        for index in start..<end {
                            let code = cells[index]
                            if code < Self.glyphBase {
                                buffer[position] = UInt8(truncatingIfNeeded: code)
                                position += 1
                            } else if code != Self.wideTail {
                                let entry = entry(code)
                                let from = starts[entry]
                                let length = lengths[entry]
                                for offset in 0..<length { buffer[position + offset] = spelled[from + offset] }
                                position += length
                            }
                        }
                        buffer[position] = 0x0A
                        position += 1
                    }
                }
            }
        }
        written.removeLast(written.count - position)
        firstRow += rows
        cells.removeAll(keepingCapacity: true)
    }

    /// The finished drawing: `\n` after every row, no trailing spaces.
    mutating func output() -> String {
        flush()
        return String(decoding: written, as: UTF8.self)
    }
}

/// ASCII stand-ins for non-ASCII graphemes, exactly as wide as the grapheme they replace, so the
/// ASCII drawing keeps the Unicode geometry.
enum ASCIIFallback {
    static func bytes(for character: Character, width: Int) -> [UInt8] {
        var result: [UInt8]
        switch character {
        case "…": result = [UInt8(ascii: "~")]
        case "•", "·", "●", "∙", "◦": result = [UInt8(ascii: "*")]
        case "‘", "’", "‚", "′": result = [UInt8(ascii: "'")]
        case "“", "”", "„", "″": result = [UInt8(ascii: "\"")]
        case "–", "—", "―", "−", "‐": result = [UInt8(ascii: "-")]
        case "→", "⟶", "⇒": result = [UInt8(ascii: ">")]
        case "←", "⟵", "⇐": result = [UInt8(ascii: "<")]
        case "×": result = [UInt8(ascii: "x")]
        case "\u{00A0}": result = [UInt8(ascii: " ")]
        default:
            // Accented letters keep their base letter ("é" becomes "e").
            result = String(character).decomposedStringWithCanonicalMapping.unicodeScalars
                .filter { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }
                .map { UInt8($0.value) }
        }
        if result.count > width { result.removeLast(result.count - width) }
        while result.count < width { result.append(UInt8(ascii: "?")) }
        return result
    }
}
