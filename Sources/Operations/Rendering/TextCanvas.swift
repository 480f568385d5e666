import Foundation

/// A grid of cells that the text renderer paints row by row and then writes out.
///
/// Cells are small codes rather than `Character`s so that painting and output stay cheap for big
/// traces: a code below 0x80 is that ASCII byte, 0x80... are ``Glyph``s, 0x100... index text
/// graphemes kept in a table, and ``wideTail`` marks the second column of a wide grapheme.
struct TextCanvas {
    static let blank: UInt32 = 0x20
    static let wideTail: UInt32 = 0xFFFF_FFFF
    private static let glyphBase: UInt32 = 0x80
    private static let textBase: UInt32 = 0x100

    let width: Int
    let charset: DiagramCharset
    private var cells: [UInt32] = []
    private var texts: [String] = []
    private var textCodes: [String: UInt32] = [:]
    /// One blank row, copied (one `memcpy`) for every new row.
    private let blankRow: [UInt32]

    init(width: Int, charset: DiagramCharset) {
        self.width = width
        self.charset = charset
        blankRow = Array(repeating: Self.blank, count: width)
    }

    var rowCount: Int { cells.count / max(width, 1) }

    /// Appends a blank row and returns its index.
    mutating func addRow() -> Int {
        cells.append(contentsOf: blankRow)
        return rowCount - 1
    }

    func isBlank(_ row: Int, _ column: Int) -> Bool {
        guard column >= 0, column < width else { return true }
        return cells[row * width + column] == Self.blank
    }

    mutating func put(_ glyph: Glyph, _ row: Int, _ column: Int) {
        guard column >= 0, column < width else {
            assertionFailure("glyph outside the canvas at column \(column) of \(width)")
            return
        }
        cells[row * width + column] = Self.glyphBase + UInt32(glyph.rawValue)
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
            var index = row * width + column
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
                let base = row * self.width + position
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
            let base = row * self.width + position
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
        let code = Self.textBase + UInt32(texts.count)
        texts.append(text)
        textCodes[text] = code
        return code
    }

    /// The finished drawing: `\n` after every row, no trailing spaces.
    ///
    /// One pass over the cells, writing the bytes straight into the string's storage: no
    /// intermediate array grows and no slice is appended per cell.
    func output() -> String {
        // The UTF-8 of every code's spelling in one flat table: glyphs, then text graphemes.
        var spelled: [UInt8] = []
        var starts: [Int] = []
        var lengths: [Int] = []
        func add(_ text: String) {
            starts.append(spelled.count)
            spelled.append(contentsOf: text.utf8)
            lengths.append(spelled.count - starts[starts.count - 1])
        }
        for glyph in Glyph.allCases { add(glyph.spelled(in: charset)) }
        let glyphCount = starts.count
        for text in texts { add(text) }
        // A cell's code as an index into the table (glyph codes count from `glyphBase`, text
        // codes from `textBase`).
        func entry(_ code: UInt32) -> Int {
            code < Self.textBase ? Int(code - Self.glyphBase) : glyphCount + Int(code - Self.textBase)
        }
        let rows = rowCount
        let width = width
        // Room for every cell at its longest spelling: untouched capacity costs nothing, and it
        // spares a first pass that adds up the exact size.
        let capacity = rows * (width * max(lengths.max() ?? 1, 1) + 1)
        return cells.withUnsafeBufferPointer { cells -> String in
            spelled.withUnsafeBufferPointer { spelled in
                String(unsafeUninitializedCapacity: capacity) { buffer in
                    var position = 0
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
                                let start = starts[entry]
                                let length = lengths[entry]
                                for offset in 0..<length {
                                    buffer[position + offset] = spelled[start + offset]
                                }
                                position += length
                            }
                        }
                        buffer[position] = 0x0A
                        position += 1
                    }
                    return position
                }
            }
        }
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
