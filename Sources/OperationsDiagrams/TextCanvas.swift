import Foundation
import Operations

/// A grid of cells that the text renderer paints row by row and writes out as it goes.
///
/// Cells are small codes rather than `Character`s so that painting and output stay cheap for big
/// traces: a code below 0x80 is that ASCII byte, 0x80... are ``Glyph``s, ``wideTail`` marks the
/// second column of a wide grapheme, and 0x100... index text graphemes kept in a table. Codes are
/// dense, so writing a cell out is one load from the spelling table and one store.
///
/// The painter never goes back to the rows of a finished step, so it calls ``flush()`` after
/// each step: those rows are written out as UTF-8 and dropped. The canvas holds a step's rows,
/// not the whole drawing, whatever the trace's length (a 100,000-message trace would otherwise
/// keep ~180 MB of cells, and rendering it would run out of cache).
struct TextCanvas {
    static let blank: UInt32 = 0x20
    /// The second column of a wide grapheme: written out as nothing.
    static let wideTail: UInt32 = 0xFF
    private static let glyphBase: UInt32 = 0x80
    private static let textBase: UInt32 = 0x100
    /// The length byte of a spelling that does not fit a packed word's seven bytes: its bytes
    /// are in `longSpellings`.
    private static let longSpelling: UInt64 = 0xFF

    let width: Int
    let charset: DiagramCharset
    /// The rows not yet written out, from ``firstRow`` on.
    private var cells: [UInt32] = []
    /// The index of the first row still in `cells`.
    private var firstRow = 0
    private var textCodes: [String: UInt32] = [:]
    private var scalarCodes: [UInt32: UInt32] = [:]
    /// One blank row, copied (one `memcpy`) for every new row.
    private let blankRow: [UInt32]
    /// The UTF-8 of every code, indexed by code: its length in the low byte and up to seven
    /// bytes above it, in order, or ``longSpelling`` with the bytes in `longSpellings`.
    private var spellings: [UInt64]
    private var longSpellings: [UInt32: [UInt8]] = [:]
    /// The most bytes any code spells.
    private var longestSpelling = 1
    /// The drawing written so far.
    private let written = DrawingBytes()
    /// A row most rows start as (the lifelines and bars of the moment), with its spelling
    /// (untrimmed) and where each column's spelling starts in it (`width + 1` offsets). A row
    /// is written out as the template's bytes up to its first differing cell, the differing
    /// cells, and the template's bytes after its last: a lifeline-only row is one copy.
    private var template: [UInt32] = []
    private var templateBytes: [UInt8] = []
    private var templateOffsets: [Int] = []
    /// The template's last non-blank column plus one.
    private var templateEnd = 0
    /// Whether ``addTemplateRow()`` may copy the template: cleared by ``forgetTemplate()``.
    private var templateCurrent = false
    /// Whether `templateBytes` spell the template.
    private var templateSpelled = false

    init(width: Int, charset: DiagramCharset) {
        self.width = width
        self.charset = charset
        blankRow = Array(repeating: Self.blank, count: width)
        spellings = Array(repeating: 0, count: Int(Self.textBase))
        for byte in 0..<0x80 { spellings[byte] = Self.packed([UInt8(byte)]) }
        for glyph in Glyph.allCases {
            let bytes = Array(glyph.spelled(in: charset).utf8)
            spellings[Int(Self.glyphBase) + Int(glyph.rawValue)] = Self.packed(bytes)
            longestSpelling = max(longestSpelling, bytes.count)
        }
        // The wide tail spells nothing; it sits above the glyphs' codes.
        assert(Int(Self.glyphBase) + Glyph.allCases.count <= Int(Self.wideTail))
        spellings[Int(Self.wideTail)] = 0
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
        written.expect(rows * (width + width / 2 + 1))
    }

    var rowCount: Int { firstRow + cells.count / max(width, 1) }

    /// Appends a blank row and returns its index.
    mutating func addRow() -> Int {
        cells.append(contentsOf: blankRow)
        return rowCount - 1
    }

    /// Appends a copy of the template row and returns its index; `nil` when the template is
    /// not current.
    mutating func addTemplateRow() -> Int? {
        guard templateCurrent else { return nil }
        cells.append(contentsOf: template)
        return rowCount - 1
    }

    /// Makes a row the template that later rows copy and are written out against. Its spelling
    /// waits for the next ``flush()``: a template replaced before then is never spelled.
    mutating func makeTemplate(of row: Int) {
        let start = (row - firstRow) * width
        template.removeAll(keepingCapacity: true)
        template.append(contentsOf: cells[start..<start + width])
        templateSpelled = false
        templateCurrent = true
    }

    /// Spells the template: its bytes, untrimmed, and where each column starts in them.
    private mutating func spellTemplate() {
        let width = width
        let longest = longestSpelling
        if templateOffsets.count != width + 1 { templateOffsets = Array(repeating: 0, count: width + 1) }
        let room = width * longest + 8
        if templateBytes.count < room { templateBytes = Array(repeating: 0, count: room) }
        var position = 0
        var end = 0
        template.withUnsafeBufferPointer { template in
            spellings.withUnsafeBufferPointer { spellings in
                templateOffsets.withUnsafeMutableBufferPointer { offsets in
                    templateBytes.withUnsafeMutableBytes { buffer in
                        let output = buffer.baseAddress!
                        for column in 0..<width {
                            offsets[column] = position
                            let code = template[column]
                            if code != Self.blank { end = column + 1 }
                            let spelling = spellings[Int(code)]
                            if spelling != Self.longSpelling {
                                output.storeBytes(
                                    of: (spelling >> 8).littleEndian, toByteOffset: position, as: UInt64.self)
                                position += Int(spelling & 0xFF)
                            } else {
                                // A template holds lines and bars, never text: should a long
                                // grapheme get in, the template is not used (rows are spelled whole).
                                position = -1
                                return
                            }
                        }
                        offsets[width] = position
                    }
                }
            }
        }
        // A template holding a grapheme of more than seven bytes is not used.
        templateSpelled = position >= 0
        templateEnd = end
    }

    /// What the template shows has changed: the next base row is drawn anew.
    mutating func forgetTemplate() {
        templateCurrent = false
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
        let written = text.utf8.withContiguousStorageIfAvailable { bytes in
            putScalars(bytes, row, column)
        }
        // Written when the UTF-8 was contiguous and every scalar a character.
        if case .some(.some) = written { return }
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

    /// Writes UTF-8 whose scalars are each a character (``TextScan``), a scalar at a time, with
    /// no Unicode view in between, and returns the column after the text; `nil`, having written
    /// nothing, when a scalar is not.
    private mutating func putScalars(_ bytes: UnsafeBufferPointer<UInt8>, _ row: Int, _ column: Int) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard byte >= 0x20 && byte != 0x7F else { return nil }
                index += 1
                continue
            }
            guard let (scalar, length) = TextScan.decode(bytes, at: index), scalar.isStandaloneGrapheme else {
                return nil
            }
            index += length
        }
        let rowStart = (row - firstRow) * width
        var position = column
        index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard position < width, position >= 0 else {
                    assertionFailure("text outside the canvas at column \(position) of \(width)")
                    return position
                }
                cells[rowStart + position] = UInt32(byte)
                position += 1
                index += 1
                continue
            }
            guard let (scalar, length) = TextScan.decode(bytes, at: index) else { return position }
            index += length
            let scalarWidth = scalar.standaloneDisplayWidth
            guard scalarWidth > 0 else { continue }
            guard position >= 0, position + scalarWidth <= width else {
                assertionFailure("text outside the canvas at column \(position) of \(width)")
                return position
            }
            if charset == .ascii {
                put(Character(scalar), width: scalarWidth, at: rowStart + position)
            } else {
                cells[rowStart + position] = code(for: scalar)
                if scalarWidth == 2 { cells[rowStart + position + 1] = Self.wideTail }
            }
            position += scalarWidth
        }
        return position
    }

    /// The code of a standalone scalar, looked up by its value rather than by a `String`.
    private mutating func code(for scalar: Unicode.Scalar) -> UInt32 {
        if let code = scalarCodes[scalar.value] { return code }
        let code = code(for: Character(scalar))
        scalarCodes[scalar.value] = code
        return code
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
        let code = UInt32(spellings.count)
        let bytes = Array(text.utf8)
        let spelling = Self.packed(bytes)
        spellings.append(spelling)
        if spelling == Self.longSpelling { longSpellings[code] = bytes }
        longestSpelling = max(longestSpelling, bytes.count)
        textCodes[text] = code
        return code
    }

    /// Writes out every row painted so far (`\n` after each, no trailing spaces) and drops
    /// them; later rows keep their indices.
    mutating func flush() {
        let rows = cells.count / max(width, 1)
        guard rows > 0 else { return }
        let width = width
        // Room for every cell at its longest spelling plus one word of slack (each cell is
        // stored as a whole word), then written through a pointer: no capacity check per byte.
        let room = rows * (width * longestSpelling + 1) + 8
        written.makeRoom(room)
        let output = written.base
        var position = written.count
        let hasTemplate = template.count == width
        if hasTemplate && !templateSpelled { spellTemplate() }
        let useTemplate = hasTemplate && templateSpelled
        let templateEnd = templateEnd
        cells.withUnsafeBufferPointer { cells in
            spellings.withUnsafeBufferPointer { spellings in
                template.withUnsafeBufferPointer { template in
                    templateBytes.withUnsafeBytes { templateBytes in
                        templateOffsets.withUnsafeBufferPointer { offsets in
                            // Cells `from..<to` of the template, spelled, at `position`.
                            func copyTemplate(_ from: Int, _ to: Int) {
                                let count = offsets[to] - offsets[from]
                                guard count > 0 else { return }
                                (output + position).copyMemory(
                                    from: templateBytes.baseAddress! + offsets[from], byteCount: count)
                                position += count
                            }
                            // Cells `from..<to` of the row starting at `start`, spelled.
                            func spell(_ start: Int, _ from: Int, _ to: Int) {
                                for index in (start + from)..<(start + to) {
                                    let code = cells[index]
                                    let spelling = spellings[Int(code)]
                                    if spelling != Self.longSpelling {
                                        // Seven bytes stored, the spelling's length kept.
                                        output.storeBytes(
                                            of: (spelling >> 8).littleEndian, toByteOffset: position,
                                            as: UInt64.self)
                                        position += Int(spelling & 0xFF)
                                    } else {
                                        for byte in longSpellings[code] ?? [] {
                                            output.storeBytes(of: byte, toByteOffset: position, as: UInt8.self)
                                            position += 1
                                        }
                                    }
                                }
                            }
                            for row in 0..<rows {
                                let start = row * width
                                if useTemplate {
                                    // The row's first and last cells that differ from the template.
                                    // Compared four cells (two words) at a time, then one by one.
                                    let rowCells = UnsafeRawPointer(cells.baseAddress! + start)
                                    let templateCells = UnsafeRawPointer(template.baseAddress!)
                                    func sameFour(_ column: Int) -> Bool {
                                        let offset = column * 4
                                        return rowCells.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                                            == templateCells.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                                            && rowCells.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                                                == templateCells.loadUnaligned(
                                                    fromByteOffset: offset + 8, as: UInt64.self)
                                    }
                                    var low = 0
                                    while low + 4 <= width && sameFour(low) { low += 4 }
                                    while low < width && cells[start + low] == template[low] { low += 1 }
                                    var end = templateEnd
                                    if low < width {
                                        var high = width - 1
                                        while high - 3 > low && sameFour(high - 3) { high -= 4 }
                                        while cells[start + high] == template[high] { high -= 1 }
                                        end = max(end, high + 1)
                                        while end > 0 && cells[start + end - 1] == Self.blank { end -= 1 }
                                        if low < end {
                                            copyTemplate(0, low)
                                            spell(start, low, min(high + 1, end))
                                            if high + 1 < end { copyTemplate(high + 1, end) }
                                        } else {
                                            copyTemplate(0, end)
                                        }
                                    } else {
                                        copyTemplate(0, end)
                                    }
                                } else {
                                    var end = width
                                    while end > 0 && cells[start + end - 1] == Self.blank { end -= 1 }
                                    spell(start, 0, end)
                                }
                                output.storeBytes(of: 0x0A, toByteOffset: position, as: UInt8.self)
                                position += 1
                            }
                        }
                    }
                }
            }
        }
        written.count = position
        firstRow += rows
        cells.removeAll(keepingCapacity: true)
    }

    /// The finished drawing: `\n` after every row, no trailing spaces.
    mutating func output() -> String {
        flush()
        return written.string()
    }
}

/// The bytes of a drawing, written through a pointer as rows are flushed, and moved into the
/// drawing's string a chunk at a time.
///
/// An array would have to be zeroed before each flush wrote over it (its elements must be
/// initialised) and trimmed after; this chunk is only ever written. It stays small and is reused,
/// so the rows written into it are still in cache when they are copied into the string, and the
/// only large allocation of a render is the string itself: a buffer holding the whole drawing
/// (62 MB for 100,000 messages) was fresh memory the kernel had to fault in and zero, on every
/// render, and made `render.100k` cost 12.6 times `render.10k`.
///
/// It belongs to one canvas, which is never copied while painting.
private final class DrawingBytes {
    /// The chunk's size: large enough that moving it into the string is one copy among
    /// thousands of rows, small enough to stay in cache and below the allocator's threshold for
    /// mapping fresh memory.
    private static let chunkSize = 1 << 17

    private(set) var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// How many bytes of the chunk are written.
    var count = 0
    /// The drawing before the chunk.
    private var drawing = ""

    init() {
        capacity = Self.chunkSize
        base = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// Makes room for about `bytes` bytes of drawing in the string, so that it is not copied as
    /// it grows.
    func expect(_ bytes: Int) {
        drawing.reserveCapacity(bytes)
    }

    /// Makes room for `bytes` more bytes in the chunk, moving what it holds into the string.
    func makeRoom(_ bytes: Int) {
        guard count + bytes > capacity else { return }
        moveChunk()
        guard bytes > capacity else { return }
        base.deallocate()
        capacity = bytes
        base = .allocate(byteCount: capacity, alignment: 8)
    }

    /// Appends the chunk's bytes to the string and empties it.
    private func moveChunk() {
        guard count > 0 else { return }
        let bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
        // Every byte written is a whole spelling taken from a `String`'s UTF-8 (or an ASCII
        // byte), so the drawing is valid UTF-8 by construction. Validating it again was the
        // renderer's largest single cost (18 % of a 10,000-message render: box drawing is
        // three-byte sequences, off the validator's ASCII fast path); copying it unchecked is
        // a `memcpy`. Debug builds still check.
        assert(String(validating: bytes, as: UTF8.self) != nil, "the canvas wrote invalid UTF-8")
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            drawing.append(String(copying: unsafe UTF8Span(unchecked: bytes.span)))
        } else {
            drawing.append(
                String(unsafeUninitializedCapacity: count) { storage in
                    storage.initialize(fromContentsOf: bytes)
                })
        }
        count = 0
    }

    /// The whole drawing.
    func string() -> String {
        moveChunk()
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
