import Operations

/// Terminal display width, measured per grapheme cluster (what a user sees as one character).
///
/// East Asian wide and fullwidth characters and emoji take two columns, combining marks and other
/// zero-width scalars take none, everything else one. Swift does not expose the Unicode
/// East_Asian_Width property, so the wide ranges are listed here (Unicode 15, the ranges that
/// matter for text a trace holds); emoji are recognised by their scalar properties.
extension Character {
    /// The number of terminal columns this grapheme occupies: 0, 1 or 2.
    package var displayWidth: Int {
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.isASCII {
            // Control characters draw nothing; a grapheme such as "e\u{301}" starts with ASCII.
            return first.value < 0x20 || first.value == 0x7F ? 0 : 1
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if Self.isWide(first.value) { return 2 }
        let properties = first.properties
        if properties.isEmojiPresentation { return 2 }
        // A text-default emoji made to present as emoji (U+FE0F), or a keycap/ZWJ sequence.
        if properties.isEmoji && scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants
            0x231A...0x231B, 0x2329...0x232A,
            0x2E80...0x303E,  // CJK radicals, Kangxi, CJK symbols and punctuation
            0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility, CJK compatibility
            0x3400...0x4DBF,  // CJK extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19, 0xFE30...0xFE6F,  // vertical forms, CJK compatibility forms
            0xFF00...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
            0x1B000...0x1B2FF,  // Kana supplement and extensions
            0x1F300...0x1F64F, 0x1F900...0x1F9FF,  // pictographs, emoticons, supplemental symbols
            0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK extensions B and beyond
            return true
        default:
            return false
        }
    }
}

extension StringProtocol {
    /// The number of terminal columns the text occupies: the sum of its graphemes' widths.
    package var displayWidth: Int {
        isPrintableASCII ? utf8.count : reduce(0) { $0 + $1.displayWidth }
    }

    /// Whether every character is printable ASCII, one column each.
    var isPrintableASCII: Bool {
        utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
