import Operations

/// Wraps label and note text to a width in display columns.
///
/// Lines break at spaces and after `(`, `,` and `.`; a token longer than the width is broken
/// hard at the width; past `maxLines` the last kept line ends in `…`.
enum LabelWrapper {
    /// Replaces control characters (tabs, newlines) with spaces and trims the ends, so a label is
    /// one line of printable text.
    static func sanitize(_ text: String) -> String {
        let utf8 = text.utf8
        if !(utf8.first == 0x20 || utf8.last == 0x20) {
            // Printable ASCII and standalone scalars hold nothing to replace.
            if TextScan.measure(text).kind != .complex { return text }
            // Control characters and newlines are always graphemes of their own (they break on
            // both sides), so a scan of the scalars finds every character the loop below would
            // replace; text without any (a label with `…` or `é`) comes back unchanged, without
            // rebuilding it character by character.
            if !text.unicodeScalars.contains(where: isReplaced) { return text }
        }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var changed = false
        for character in text {
            if character.isNewline || character == "\t"
                || character.unicodeScalars.first.map({ $0.properties.generalCategory == .control }) == true
            {
                result.append(" ")
                changed = true
            } else {
                result.append(character)
            }
        }
        let source = changed ? result : text
        return String(source.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

    /// Whether a scalar makes its character one that ``sanitize(_:)`` replaces: a control
    /// character (C0, DEL, C1) or a line or paragraph separator.
    private static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }

    /// The lines of a note: its own line breaks kept, each paragraph sanitized.
    static func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { sanitize(String($0)) }
    }

    /// Wraps one line of text.
    /// - Parameters:
    ///   - text: Sanitized text.
    ///   - width: The widest a line may be, at least 1.
    ///   - maxLines: How many lines to keep before ending with `…`, or `nil` for no limit.
    /// - Returns: At least one line, none wider than `width`, without trailing spaces.
    static func wrap(_ text: String, width: Int, maxLines: Int? = nil) -> [String] {
        let width = max(width, 1)
        // No grapheme is wider than its UTF-8: text of at most `width` bytes fits as it is.
        if text.utf8.count <= width { return [text] }
        let (kind, textWidth) = TextScan.measure(text)
        if kind != .complex {
            if textWidth <= width { return [text] }
            let lines = wrapScalars(Array(text.utf8), width: width, stopAfter: maxLines.map { $0 + 1 })
            return limit(lines, width: width, maxLines: maxLines)
        } else if text.displayWidth <= width {
            return [text]
        }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var pendingSpaces = 0

        func flush() {
            lines.append(line)
            line = ""
            lineWidth = 0
            pendingSpaces = 0
        }

        for piece in pieces(of: text) {
            let trimmed = piece.trimmingTrailingSpaces
            let spaces = piece.count - trimmed.count
            let pieceWidth = trimmed.displayWidth
            if !line.isEmpty && lineWidth + pendingSpaces + pieceWidth > width { flush() }
            if line.isEmpty { pendingSpaces = 0 }
            if pieceWidth > width - lineWidth - pendingSpaces {
                // Only a token longer than a whole line gets here: break it hard.
                line += String(repeating: " ", count: pendingSpaces)
                lineWidth += pendingSpaces
                for character in trimmed {
                    let characterWidth = character.displayWidth
                    if lineWidth + characterWidth > width { flush() }
                    line.append(character)
                    lineWidth += characterWidth
                }
            } else {
                line += String(repeating: " ", count: pendingSpaces) + trimmed
                lineWidth += pendingSpaces + pieceWidth
            }
            pendingSpaces = spaces
        }
        if !line.isEmpty || lines.isEmpty { flush() }
        return limit(lines, width: width, maxLines: maxLines)
    }

    /// The first `maxLines` lines, the last ending in `…`, when there are more.
    private static func limit(_ lines: consuming [String], width: Int, maxLines: Int?) -> [String] {
        guard let maxLines, lines.count > maxLines, maxLines > 0 else { return lines }
        // Cut in place: the array is the wrapper's own.
        var kept = lines
        kept.removeLast(kept.count - maxLines)
        kept[maxLines - 1] = ellipsized(kept[maxLines - 1], width: width)
        return kept
    }

    /// ``wrap(_:width:maxLines:)`` for text of ``TextScan/Kind/ascii`` or
    /// ``TextScan/Kind/standalone`` scalars, where every scalar is a character: the same pieces
    /// and the same breaks, walked over the UTF-8 scalar by scalar. A line is always a contiguous
    /// run of the text (the spaces between two pieces on one line are the text's own), so each
    /// line is made from its range of the bytes in one go, never unit by unit.
    ///
    /// With `stopAfter`, wrapping stops once that many lines are made: a label past its line
    /// limit is cut there anyway, so the lines after the first one past it are never needed.
    private static func wrapScalars(_ bytes: [UInt8], width: Int, stopAfter: Int?) -> [String] {
        let stopAfter = stopAfter ?? Int.max
        let count = bytes.count
        let space = UInt8(ascii: " ")
        var lines: [String] = []
        // Most labels wrap to a few lines: one allocation, not one per doubling.
        lines.reserveCapacity(min(stopAfter, count / max(width, 1) + 2))
        var lineStart: Int?
        var lineEnd = 0
        var lineWidth = 0
        var pendingSpaces = 0

        func next(_ index: Int) -> Int {
            let lead = bytes[index]
            return index + (lead < 0x80 ? 1 : lead < 0xE0 ? 2 : 3)
        }
        func previous(_ index: Int) -> Int {
            var start = index - 1
            while bytes[start] & 0xC0 == 0x80 { start -= 1 }
            return start
        }
        func scalar(_ index: Int) -> Unicode.Scalar {
            let lead = bytes[index]
            return lead < 0x80 ? Unicode.Scalar(lead) : TextScan.decode(bytes, at: index)?.0 ?? " "
        }
        func unitWidth(_ index: Int) -> Int {
            bytes[index] < 0x80 ? 1 : scalar(index).standaloneDisplayWidth
        }
        func isBoundary(_ before: Int, _ after: Int) -> Bool {
            if bytes[before] < 0x80 && bytes[after] < 0x80 { return asciiBoundary(bytes[before], bytes[after]) }
            return scalarBoundary(scalar(before), scalar(after))
        }
        func append(_ range: Range<Int>) {
            if lineStart == nil { lineStart = range.lowerBound }
            lineEnd = range.upperBound
        }
        func flush() {
            // Each line is a run of the text's own bytes: made into its string as it ends.
            lines.append(
                lineStart.map { String(decoding: bytes[$0..<lineEnd], as: UTF8.self) } ?? "")
            lineStart = nil
            lineWidth = 0
            pendingSpaces = 0
        }

        var start = 0
        while start < count && lines.count < stopAfter {
            // One piece: up to a run of spaces, or up to `(`, `,` or `.` and the spaces after it.
            var end = start
            while end < count {
                let byte = bytes[end]
                end = next(end)
                if byte == space || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ".")
                {
                    while end < count && bytes[end] == space { end += 1 }
                    break
                }
            }
            var trimmedEnd = end
            while trimmedEnd > start && bytes[trimmedEnd - 1] == space { trimmedEnd -= 1 }
            let spaces = end - trimmedEnd
            var pieceWidth = 0
            var unit = start
            while unit < trimmedEnd {
                pieceWidth += unitWidth(unit)
                unit = next(unit)
            }
            if lineStart != nil && lineWidth + pendingSpaces + pieceWidth > width { flush() }
            if lineStart == nil { pendingSpaces = 0 }
            // The pending spaces are the ones in the text right before this piece.
            if lineStart != nil { lineEnd += pendingSpaces }
            lineWidth += pendingSpaces
            if pieceWidth > width - lineWidth {
                // Only a token longer than a whole line gets here: break it hard, at the last
                // identifier boundary that fits (`checkout` / `Request`), or where the line is full.
                var index = start
                while index < trimmedEnd && lines.count < stopAfter {
                    var fitEnd = index
                    var fitWidth = lineWidth
                    while fitEnd < trimmedEnd && fitWidth + unitWidth(fitEnd) <= width {
                        fitWidth += unitWidth(fitEnd)
                        fitEnd = next(fitEnd)
                    }
                    if fitEnd == trimmedEnd {
                        append(index..<trimmedEnd)
                        lineWidth = fitWidth
                        break
                    }
                    if fitEnd == index {
                        // Not one more unit fits: a new line, or one over-wide unit alone.
                        if lineStart != nil {
                            flush()
                            continue
                        }
                        fitWidth += unitWidth(index)
                        fitEnd = next(index)
                    }
                    var cut = fitEnd
                    var candidate = fitEnd
                    let second = next(index)
                    while candidate > second {
                        let before = previous(candidate)
                        if isBoundary(before, candidate) {
                            cut = candidate
                            break
                        }
                        candidate = before
                    }
                    append(index..<cut)
                    flush()
                    index = cut
                }
            } else {
                append(start..<trimmedEnd)
                lineWidth += pieceWidth
            }
            pendingSpaces = spaces
            start = end
        }
        if lines.count < stopAfter && (lineStart != nil || lines.isEmpty) { flush() }
        return lines
    }

    /// Whether a hard break between two ASCII bytes falls on an identifier boundary: a lower-case
    /// letter or digit followed by a capital (`checkout|Request`), or after `_`, `-`, `/`, `:`.
    static func asciiBoundary(_ previous: UInt8, _ next: UInt8) -> Bool {
        let lowerOrDigit = (previous >= 0x61 && previous <= 0x7A) || (previous >= 0x30 && previous <= 0x39)
        if lowerOrDigit && next >= 0x41 && next <= 0x5A { return true }
        return previous == UInt8(ascii: "_") || previous == UInt8(ascii: "-") || previous == UInt8(ascii: "/")
            || previous == UInt8(ascii: ":")
    }

    /// ``asciiBoundary(_:_:)`` for Unicode scalars: case taken from the scalar's properties.
    static func scalarBoundary(_ previous: Unicode.Scalar, _ next: Unicode.Scalar) -> Bool {
        if (previous.properties.isLowercase || previous.properties.numericType != nil) && next.properties.isUppercase {
            return true
        }
        return previous == "_" || previous == "-" || previous == "/" || previous == ":"
    }

    /// The line shortened so that it and a final `…` fit the width.
    static func ellipsized(_ line: String, width: Int) -> String {
        let (kind, measured) = TextScan.measure(line)
        if kind != .complex {
            // Scalars are characters: cut the UTF-8 a scalar at a time from the end.
            let bytes = Array(line.utf8)
            var end = bytes.count
            var lineWidth = measured
            while end > 0 && lineWidth + 1 > width {
                var start = end - 1
                while bytes[start] & 0xC0 == 0x80 { start -= 1 }
                lineWidth -= bytes[start] < 0x80 ? 1 : TextScan.decode(bytes, at: start)?.0.standaloneDisplayWidth ?? 1
                end = start
            }
            while end > 0 && bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            return String(decoding: bytes[0..<end], as: UTF8.self) + "…"
        }
        var characters = Array(line)
        var lineWidth = line.displayWidth
        while !characters.isEmpty && lineWidth + 1 > width {
            lineWidth -= characters.removeLast().displayWidth
        }
        while characters.last == " " { characters.removeLast() }
        return String(characters) + "…"
    }

    /// The width of the widest piece of text that wrapping cannot split without a hard break.
    static func longestPiece(_ text: String) -> Int {
        pieces(of: text).map { $0.trimmingTrailingSpaces.displayWidth }.max() ?? 0
    }

    /// Splits text after each break opportunity: a run of spaces, `(`, `,` or `.`.
    static func pieces(of text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        var index = start
        while index < text.endIndex {
            let character = text[index]
            var next = text.index(after: index)
            if character == " " {
                while next < text.endIndex && text[next] == " " { next = text.index(after: next) }
                result.append(text[start..<next])
                start = next
            } else if character == "(" || character == "," || character == "." {
                // Keep a space that follows the punctuation with it.
                while next < text.endIndex && text[next] == " " { next = text.index(after: next) }
                result.append(text[start..<next])
                start = next
            }
            index = next
        }
        if start < text.endIndex { result.append(text[start...]) }
        return result
    }
}

extension Substring {
    fileprivate var trimmingTrailingSpaces: Substring {
        var end = endIndex
        while end > startIndex && self[index(before: end)] == " " { end = index(before: end) }
        return self[startIndex..<end]
    }
}
