import Foundation
import Operations

/// A grid of cells that the text renderer paints row by row and writes out as it goes.
///
/// A cell is a small code rather than a `Character`: below 0x80 it is that ASCII byte, 0x80...
/// are ``Glyph``s, ``wideTail`` marks the second column of a wide grapheme, and 0x100... index
/// the graphemes of text kept in a table. Each code's UTF-8 is packed into one word (its length,
/// then up to seven bytes), so writing a cell out is a lookup and a few appends; a longer
/// grapheme (a family emoji) keeps its bytes in a side table.
///
/// The painter never goes back to the rows of a finished step, so it calls ``flush()`` after
/// each step: those rows are written out and dropped. The canvas holds a step's rows, not the
/// whole drawing, whatever the trace's length.
struct TextCanvas {
    static let blank: UInt32 = 0x20
    /// The second column of a wide grapheme: written out as nothing.
    static let wideTail: UInt32 = 0xFF
    private static let glyphBase: UInt32 = 0x80
    private static let textBase: UInt32 = 0x100
    /// The length byte of a spelling longer than seven bytes: its bytes are in `longSpellings`.
    private static let longSpelling: UInt64 = 0xFF

    let width: Int
    let charset: DiagramCharset
    /// The rows not yet written out, from ``firstRow`` on, `width` cells each.
    private var cells: [UInt32] = []
    /// The index of the first row still in `cells`.
    private var firstRow = 0
    /// The code of each grapheme of text seen so far.
    private var textCodes: [Character: UInt32] = [:]
    /// The UTF-8 of every code, indexed by code: its length in the low byte and its bytes
    /// above, in order, or ``longSpelling``.
    private var spellings: [UInt64]
    private var longSpellings: [UInt32: [UInt8]] = [:]
    /// One blank row, copied for every new row.
    private let blankRow: [UInt32]
    /// A row most rows start as (the lifelines and bars of the moment).
    private var template: [UInt32]?
    /// The template's UTF-8, untrimmed, and where each of its columns starts in it (`width + 1`
    /// offsets), once a flush needs them: a row is written out as the template's bytes up to
    /// its first cell that differs, its own cells, and the template's bytes after its last.
    private var templateBytes: [UInt8] = []
    private var templateOffsets: [Int] = []
    /// The template's last non-blank column plus one.
    private var templateEnd = 0
    /// Whether `templateBytes` spell the current template.
    private var templateSpelled = false
    /// The rows written out so far, as UTF-8.
    private var written: [UInt8] = []
    /// The drawing before `written`: rows move into it a chunk at a time, so `written` stays
    /// small and is reused.
    private var drawing = ""

    init(width: Int, charset: DiagramCharset) {
        self.width = width
        self.charset = charset
        blankRow = Array(repeating: Self.blank, count: width)
        spellings = Array(repeating: 0, count: Int(Self.textBase))
        for byte in 0..<0x80 { spellings[byte] = Self.packed([UInt8(byte)]) }
        for glyph in Glyph.allCases {
            spellings[Int(Self.glyphBase) + Int(glyph.rawValue)] = Self.packed(Array(glyph.spelled(in: charset).utf8))
        }
        // The wide tail spells nothing; it sits above the glyphs' codes.
        assert(Int(Self.glyphBase) + Glyph.allCases.count <= Int(Self.wideTail))
        spellings[Int(Self.wideTail)] = 0
        written.reserveCapacity(Self.chunkSize + 4_096)
    }

    /// A spelling of at most seven bytes as one word: the length, then the bytes.
    private static func packed(_ bytes: [UInt8]) -> UInt64 {
        guard bytes.count <= 7 else { return longSpelling }
        var word = UInt64(bytes.count)
        for (offset, byte) in bytes.enumerated() { word |= UInt64(byte) << (8 * (offset + 1)) }
        return word
    }

    /// Makes room for about `rows` rows of output: a row's lifelines and box drawing take
    /// three bytes a cell, its blanks one.
    mutating func reserve(rows: Int) {
        drawing.reserveCapacity(rows * (width + width / 2 + 1))
    }

    var rowCount: Int { firstRow + cells.count / max(width, 1) }

    /// Appends a blank row and returns its index.
    mutating func addRow() -> Int {
        cells.append(contentsOf: blankRow)
        return rowCount - 1
    }

    /// Appends a copy of the template row and returns its index; `nil` when there is no
    /// current template.
    mutating func addTemplateRow() -> Int? {
        guard let template else { return nil }
        cells.append(contentsOf: template)
        return rowCount - 1
    }

    /// Makes a row the template that later rows copy.
    mutating func makeTemplate(of row: Int) {
        let start = (row - firstRow) * width
        template = Array(cells[start..<start + width])
        templateSpelled = false
    }

    /// What the template shows has changed: the next base row is drawn anew.
    mutating func forgetTemplate() {
        template = nil
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
        var position = column
        for character in text {
            let width = character.displayWidth
            guard width > 0 else { continue }
            guard position >= 0, position + width <= self.width else {
                assertionFailure("text outside the canvas at column \(position) of \(self.width)")
                return
            }
            let base = (row - firstRow) * self.width + position
            if let ascii = character.asciiValue {
                cells[base] = UInt32(ascii)
            } else if charset == .ascii {
                for (offset, byte) in ASCIIFallback.bytes(for: character, width: width).enumerated() {
                    cells[base + offset] = UInt32(byte)
                }
            } else {
                cells[base] = code(for: character)
                if width == 2 { cells[base + 1] = Self.wideTail }
            }
            position += width
        }
    }

    /// The code of a grapheme of text, given the first time it is seen.
    private mutating func code(for character: Character) -> UInt32 {
        if let code = textCodes[character] { return code }
        let code = UInt32(spellings.count)
        let bytes = Array(String(character).utf8)
        let spelling = Self.packed(bytes)
        spellings.append(spelling)
        if spelling == Self.longSpelling { longSpellings[code] = bytes }
        textCodes[character] = code
        return code
    }

    /// Writes out every row painted so far (`\n` after each, no trailing spaces) and drops
    /// them; later rows keep their indices.
    mutating func flush() {
        let rows = cells.count / max(width, 1)
        guard rows > 0 else { return }
        if let template, !templateSpelled { spellTemplate(template) }
        for row in 0..<rows {
            let start = row * width
            if let template {
                writeAgainstTemplate(start, template)
            } else {
                var end = width
                while end > 0 && cells[start + end - 1] == Self.blank { end -= 1 }
                for index in start..<start + end { spell(cells[index]) }
            }
            written.append(0x0A)
        }
        firstRow += rows
        cells.removeAll(keepingCapacity: true)
        if written.count >= Self.chunkSize { moveWritten() }
    }

    /// Spells the template: its bytes, untrimmed, and where each column starts in them.
    private mutating func spellTemplate(_ template: [UInt32]) {
        var bytes: [UInt8] = []
        templateOffsets.removeAll(keepingCapacity: true)
        templateEnd = 0
        for (column, code) in template.enumerated() {
            templateOffsets.append(bytes.count)
            if code != Self.blank { templateEnd = column + 1 }
            Self.spell(code, spellings, longSpellings, into: &bytes)
        }
        templateOffsets.append(bytes.count)
        templateBytes = bytes
        templateSpelled = true
    }

    /// Writes out the row starting at cell `start`: the template's bytes where the row is the
    /// template, its own cells between the first and the last that differ, trimmed.
    private mutating func writeAgainstTemplate(_ start: Int, _ template: [UInt32]) {
        var low = 0
        while low < width && cells[start + low] == template[low] { low += 1 }
        guard low < width else {
            written.append(contentsOf: templateBytes[0..<templateOffsets[templateEnd]])
            return
        }
        var high = width - 1
        while cells[start + high] == template[high] { high -= 1 }
        var end = max(templateEnd, high + 1)
        while end > 0 && cells[start + end - 1] == Self.blank { end -= 1 }
        guard low < end else {
            written.append(contentsOf: templateBytes[0..<templateOffsets[end]])
            return
        }
        written.append(contentsOf: templateBytes[0..<templateOffsets[low]])
        for index in start + low..<start + min(high + 1, end) { spell(cells[index]) }
        if high + 1 < end {
            written.append(contentsOf: templateBytes[templateOffsets[high + 1]..<templateOffsets[end]])
        }
    }

    /// Appends the UTF-8 of a cell's code to the rows written out.
    private mutating func spell(_ code: UInt32) {
        Self.spell(code, spellings, longSpellings, into: &written)
    }

    /// Appends the UTF-8 of `code`, spelled by the tables given, to `bytes`.
    private static func spell(
        _ code: UInt32, _ spellings: [UInt64], _ longSpellings: [UInt32: [UInt8]], into bytes: inout [UInt8]
    ) {
        if code < 0x80 {
            bytes.append(UInt8(code))
            return
        }
        let spelling = spellings[Int(code)]
        if spelling == longSpelling {
            bytes.append(contentsOf: longSpellings[code] ?? [])
            return
        }
        var packed = spelling >> 8
        for _ in 0..<Int(spelling & 0xFF) {
            bytes.append(UInt8(truncatingIfNeeded: packed))
            packed >>= 8
        }
    }

    /// How many bytes of rows ``flush()`` gathers before moving them into the drawing: large
    /// enough that the move is one copy among thousands of rows, small enough to stay in cache.
    private static let chunkSize = 1 << 17

    /// Moves the rows written out into the drawing. Every byte is a whole spelling taken from a
    /// `String`'s UTF-8, so decoding never repairs anything.
    private mutating func moveWritten() {
        drawing += String(decoding: written, as: UTF8.self)
        written.removeAll(keepingCapacity: true)
    }

    /// The finished drawing: `\n` after every row, no trailing spaces.
    mutating func output() -> String {
        flush()
        moveWritten()
        return drawing
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
