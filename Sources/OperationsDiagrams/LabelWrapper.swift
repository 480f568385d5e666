import Operations

/// Wraps label and note text to a width in display columns.
///
/// Lines break at spaces and after `(`, `,` and `.`; a token longer than the width is broken
/// hard, at the last place where an identifier's words meet (``isWordBoundary(_:_:)``) that
/// fits, else where the line is full; past `maxLines` the last kept line ends in `…`.
enum LabelWrapper {
    /// Replaces control characters (tabs, newlines) with spaces and trims the ends, so a label is
    /// one line of printable text.
    static func sanitize(_ text: String) -> String {
        // Most labels are printable ASCII with nothing to trim.
        if text.isPrintableASCII && text.first != " " && text.last != " " { return text }
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
                    if isWordBoundary(rest[candidate - 1], rest[candidate]) {
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

        for piece in pieces(of: text) {
            let token = Array(piece.trimmingTrailingSpaces)
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
                breakHard(token[...])
            }
            pendingSpaces = piece.count - token.count
        }
        if !line.isEmpty || lines.isEmpty { flush() }

        guard let maxLines, lines.count > maxLines, maxLines > 0 else { return lines }
        var kept = Array(lines.prefix(maxLines))
        kept[maxLines - 1] = ellipsized(kept[maxLines - 1], width: width)
        return kept
    }

    /// Whether a hard break between two characters falls where an identifier's words meet: a
    /// lower-case letter or digit followed by a capital (`checkout|Request`), or after `_`, `-`,
    /// `/`, `:`.
    static func isWordBoundary(_ previous: Character, _ next: Character) -> Bool {
        if let before = previous.asciiValue, let after = next.asciiValue {
            let lowerOrDigit = (0x61...0x7A).contains(before) || (0x30...0x39).contains(before)
            if lowerOrDigit && (0x41...0x5A).contains(after) { return true }
            return previous == "_" || previous == "-" || previous == "/" || previous == ":"
        }
        guard let before = previous.unicodeScalars.last, let after = next.unicodeScalars.first else { return false }
        if (before.properties.isLowercase || before.properties.numericType != nil) && after.properties.isUppercase {
            return true
        }
        return before == "_" || before == "-" || before == "/" || before == ":"
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

    /// Splits text after each break opportunity: a run of spaces, or `(`, `,` or `.` with the
    /// spaces that follow it.
    static func pieces(of text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        var index = start
        while index < text.endIndex {
            let character = text[index]
            var next = text.index(after: index)
            if character == " " || character == "(" || character == "," || character == "." {
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
