/// Wraps label and note text to a width in display columns.
///
/// Lines break at spaces and after `(`, `,` and `.`; a token longer than the width is broken
/// hard at the width; past `maxLines` the last kept line ends in `…`.
enum LabelWrapper {
    /// Replaces control characters (tabs, newlines) with spaces and trims the ends, so a label is
    /// one line of printable text.
    static func sanitize(_ text: String) -> String {
        let utf8 = text.utf8
        if utf8.first != 0x20 && utf8.last != 0x20 {
            if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
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
        if text.displayWidth <= width { return [text] }
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            let lines = wrapUnits(
                Array(text.utf8), width: width, space: UInt8(ascii: " "),
                isBreak: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ".") },
                unitWidth: { _ in 1 }, isBoundary: Self.asciiBoundary, string: { String(decoding: $0, as: UTF8.self) })
            return limit(lines, width: width, maxLines: maxLines)
        }
        if text.unicodeScalars.allSatisfy(\.isStandaloneGrapheme) {
            let lines = wrapUnits(
                Array(text.unicodeScalars), width: width, space: " ", isBreak: { $0 == "(" || $0 == "," || $0 == "." },
                unitWidth: \.standaloneDisplayWidth, isBoundary: Self.scalarBoundary,
                string: { scalars in
                    var utf8: [UInt8] = []
                    utf8.reserveCapacity(scalars.count * 3)
                    for scalar in scalars { UTF8.encode(scalar) { utf8.append($0) } }
                    return String(decoding: utf8, as: UTF8.self)
                })
            return limit(lines, width: width, maxLines: maxLines)
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
    private static func limit(_ lines: [String], width: Int, maxLines: Int?) -> [String] {
        guard let maxLines, lines.count > maxLines, maxLines > 0 else { return lines }
        var kept = Array(lines.prefix(maxLines))
        kept[maxLines - 1] = ellipsized(kept[maxLines - 1], width: width)
        return kept
    }

    /// ``wrap(_:width:maxLines:)`` for text whose units (bytes of printable ASCII, or scalars
    /// that are graphemes of their own) are its characters: the same pieces and the same breaks,
    /// on an array of units instead of characters.
    private static func wrapUnits<Unit: Equatable>(
        _ text: [Unit], width: Int, space: Unit, isBreak: (Unit) -> Bool, unitWidth: (Unit) -> Int,
        isBoundary: (Unit, Unit) -> Bool, string: ([Unit]) -> String
    ) -> [String] {
        var lines: [String] = []
        var line: [Unit] = []
        var lineWidth = 0
        var pendingSpaces = 0

        func flush() {
            lines.append(string(line))
            line.removeAll(keepingCapacity: true)
            lineWidth = 0
            pendingSpaces = 0
        }

        var start = 0
        while start < text.count {
            // One piece: up to a run of spaces, or up to `(`, `,` or `.` and the spaces after it.
            var end = start
            while end < text.count {
                let unit = text[end]
                end += 1
                if unit == space || isBreak(unit) {
                    while end < text.count && text[end] == space { end += 1 }
                    break
                }
            }
            var trimmedEnd = end
            while trimmedEnd > start && text[trimmedEnd - 1] == space { trimmedEnd -= 1 }
            let spaces = end - trimmedEnd
            var pieceWidth = 0
            for unit in text[start..<trimmedEnd] { pieceWidth += unitWidth(unit) }
            if !line.isEmpty && lineWidth + pendingSpaces + pieceWidth > width { flush() }
            if line.isEmpty { pendingSpaces = 0 }
            line.append(contentsOf: repeatElement(space, count: pendingSpaces))
            lineWidth += pendingSpaces
            if pieceWidth > width - lineWidth {
                // Only a token longer than a whole line gets here: break it hard, at the last
                // identifier boundary that fits (`checkout` / `Request`), or where the line is full.
                var index = start
                while index < trimmedEnd {
                    var fitEnd = index
                    var fitWidth = lineWidth
                    while fitEnd < trimmedEnd && fitWidth + unitWidth(text[fitEnd]) <= width {
                        fitWidth += unitWidth(text[fitEnd])
                        fitEnd += 1
                    }
                    if fitEnd == trimmedEnd {
                        line.append(contentsOf: text[index..<trimmedEnd])
                        lineWidth = fitWidth
                        break
                    }
                    if fitEnd == index {
                        // Not one more unit fits: a new line, or one over-wide unit alone.
                        if !line.isEmpty {
                            flush()
                            continue
                        }
                        fitEnd = index + 1
                        fitWidth += unitWidth(text[index])
                    }
                    var cut = fitEnd
                    var candidate = fitEnd
                    while candidate > index + 1 {
                        if isBoundary(text[candidate - 1], text[candidate]) {
                            cut = candidate
                            break
                        }
                        candidate -= 1
                    }
                    line.append(contentsOf: text[index..<cut])
                    flush()
                    index = cut
                }
            } else {
                line.append(contentsOf: text[start..<trimmedEnd])
                lineWidth += pieceWidth
            }
            pendingSpaces = spaces
            start = end
        }
        if !line.isEmpty || lines.isEmpty { flush() }
        return lines
    }

    /// Whether a hard break between two ASCII bytes falls on an identifier boundary: a lower-case
    /// letter or digit followed by a capital (`checkout|Request`), or after `_`, `-`, `/`, `:`.
    private static func asciiBoundary(_ previous: UInt8, _ next: UInt8) -> Bool {
        let lowerOrDigit = (previous >= 0x61 && previous <= 0x7A) || (previous >= 0x30 && previous <= 0x39)
        if lowerOrDigit && next >= 0x41 && next <= 0x5A { return true }
        return previous == UInt8(ascii: "_") || previous == UInt8(ascii: "-") || previous == UInt8(ascii: "/")
            || previous == UInt8(ascii: ":")
    }

    /// ``asciiBoundary(_:_:)`` for Unicode scalars: case taken from the scalar's properties.
    private static func scalarBoundary(_ previous: Unicode.Scalar, _ next: Unicode.Scalar) -> Bool {
        if (previous.properties.isLowercase || previous.properties.numericType != nil) && next.properties.isUppercase {
            return true
        }
        return previous == "_" || previous == "-" || previous == "/" || previous == ":"
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
