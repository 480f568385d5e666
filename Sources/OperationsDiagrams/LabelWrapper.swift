import Operations

/// Wraps label and note text to a width in display columns.
///
/// Lines break at spaces and after `(`, `,` and `.`; a token longer than the width is broken
/// hard, at the last place where an identifier's words meet (``TextUnit/isWordBoundary(_:_:)``) that
/// fits, else where the line is full; past `maxLines` the last kept line ends in `…`.
enum LabelWrapper {
    /// Replaces control characters (tabs, newlines) with spaces and trims the ends, so a label is
    /// one line of printable text.
    static func sanitize(_ text: String) -> String {
        let scalars = text.unicodeScalars
        if scalars.first != " " && scalars.last != " "
            && !scalars.contains(where: {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}"
            })
        {
            return text
        }
        var result = ""
        for character in text {
            let isControl = character.unicodeScalars.first?.properties.generalCategory == .control
            result.append(character.isNewline || character == "\t" || isControl ? " " : character)
        }
        guard let first = result.firstIndex(where: { $0 != " " }), let last = result.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(result[first...last])
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
        guard text.displayWidth > width else { return [text] }
        var lines: [String] = []
        var line: [Character] = []
        var lineWidth = 0
        var pendingSpaces = 0

        func flush() {
            lines.append(String(line))
            line.removeAll()
            lineWidth = 0
            pendingSpaces = 0
        }

        /// Puts a token wider than a line on as many lines as it takes, each cut at the last
        /// word boundary that fits, or where the line is full.
        func breakHard(_ token: ArraySlice<Character>) {
            var rest = token
            while !rest.isEmpty {
                var fitEnd = rest.startIndex
                var fitWidth = lineWidth
                while fitEnd < rest.endIndex && fitWidth + rest[fitEnd].displayWidth <= width {
                    fitWidth += rest[fitEnd].displayWidth
                    fitEnd += 1
                }
                if fitEnd == rest.endIndex {
                    line += rest
                    lineWidth = fitWidth
                    return
                }
                if fitEnd == rest.startIndex {
                    // Not one more character fits: a new line, or one over-wide character alone.
                    if !line.isEmpty {
                        flush()
                        continue
                    }
                    fitEnd += 1
                }
                var cut = fitEnd
                var candidate = fitEnd
                while candidate > rest.startIndex + 1 {
                    if Character.isWordBoundary(rest[candidate - 1], rest[candidate]) {
                        cut = candidate
                        break
                    }
                    candidate -= 1
                }
                line += rest[..<cut]
                flush()
                rest = rest[cut...]
            }
        }

        let characters = Array(text)
        for piece in pieces(of: characters) {
            var tokenEnd = piece.upperBound
            while tokenEnd > piece.lowerBound && characters[tokenEnd - 1].isSpace { tokenEnd -= 1 }
            let token = characters[piece.lowerBound..<tokenEnd]
            let pieceWidth = token.reduce(0) { $0 + $1.displayWidth }
            if !line.isEmpty && lineWidth + pendingSpaces + pieceWidth > width { flush() }
            // The spaces before a piece stay only between two pieces on one line.
            if line.isEmpty { pendingSpaces = 0 }
            line += repeatElement(" ", count: pendingSpaces)
            lineWidth += pendingSpaces
            if pieceWidth <= width - lineWidth {
                line += token
                lineWidth += pieceWidth
            } else {
                // Only a token longer than a whole line gets here: break it hard.
                breakHard(token)
            }
            pendingSpaces = piece.count - token.count
        }
        if !line.isEmpty || lines.isEmpty { flush() }

        guard let maxLines, lines.count > maxLines, maxLines > 0 else { return lines }
        var kept = Array(lines.prefix(maxLines))
        kept[maxLines - 1] = ellipsized(kept[maxLines - 1], width: width)
        return kept
    }

    /// The line shortened so that it and a final `…` fit the width.
    static func ellipsized(_ line: String, width: Int) -> String {
        var characters = Array(line)
        var lineWidth = line.displayWidth
        while !characters.isEmpty && lineWidth + 1 > width {
            lineWidth -= characters.removeLast().displayWidth
        }
        while characters.last == " " { characters.removeLast() }
        return String(characters) + "…"
    }

    /// Where text splits after each break opportunity: a run of spaces, or `(`, `,` or `.` with
    /// the spaces that follow it.
    static func pieces<Text: Collection>(of text: Text) -> [Range<Text.Index>] where Text.Element: TextUnit {
        var result: [Range<Text.Index>] = []
        var start = text.startIndex
        var index = start
        while index < text.endIndex {
            var next = text.index(after: index)
            if text[index].breaksAfter {
                while next < text.endIndex && text[next].isSpace { next = text.index(after: next) }
                result.append(start..<next)
                start = next
            }
            index = next
        }
        if start < text.endIndex { result.append(start..<text.endIndex) }
        return result
    }
}
