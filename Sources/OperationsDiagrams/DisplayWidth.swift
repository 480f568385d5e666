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
        if Self.isZeroWidth(first) { return 0 }
        if Self.isWide(first.value) { return 2 }
        let properties = first.properties
        if properties.isEmojiPresentation { return 2 }
        // A text-default emoji made to present as emoji (U+FE0F), or a keycap/ZWJ sequence.
        if properties.isEmoji && scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return false
        }
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

extension Unicode.Scalar {
    /// Whether this scalar is always a grapheme of its own in text made only of such scalars:
    /// printable ASCII, and the blocks of letters, punctuation, arrows and symbols that hold no
    /// combining mark, joiner, variation selector, regional indicator, Hangul jamo or prepended
    /// or spacing mark (the scalars that grapheme clustering joins to a neighbour).
    package var isStandaloneGrapheme: Bool {
        switch value {
        case 0x20...0x7E, 0xA0...0x2FF, 0x370...0x3FF, 0x400...0x482, 0x2010...0x2027, 0x2030...0x205E,
            0x2190...0x23FF, 0x2500...0x27BF:
            return true
        default:
            return false
        }
    }

    /// The display width of this scalar as a grapheme of its own: ``Character/displayWidth``
    /// of the one-scalar character, without building it.
    package var standaloneDisplayWidth: Int {
        if value < 0x80 { return value < 0x20 || value == 0x7F ? 0 : 1 }
        // Latin-1 and Latin Extended letters and signs, and general punctuation (`…`, `—`):
        // one column, no property lookup (the soft hyphen is a format character: none).
        if (0xA0...0x2FF).contains(value) { return value == 0xAD ? 0 : 1 }
        if (0x2010...0x2027).contains(value) || (0x2030...0x205E).contains(value) { return 1 }
        return Character(self).displayWidth
    }
}

extension StringProtocol {
    /// The number of terminal columns the text occupies: the sum of its graphemes' widths.
    ///
    /// Printable ASCII is its byte count; text whose scalars are all standalone graphemes (a
    /// label with `…`, `é` or an arrow) is summed scalar by scalar, which gives the same result
    /// as the grapheme loop without segmenting graphemes; anything else is measured grapheme by
    /// grapheme.
    package var displayWidth: Int {
        var allASCII = true
        for byte in utf8 where byte >= 0x80 || byte < 0x20 || byte == 0x7F {
            allASCII = false
            break
        }
        if allASCII { return utf8.count }
        var width = 0
        if unicodeScalars.allSatisfy(\.isStandaloneGrapheme) {
            for scalar in unicodeScalars { width += scalar.standaloneDisplayWidth }
            return width
        }
        for character in self { width += character.displayWidth }
        return width
    }
}

extension String {
    /// ``StringProtocol/displayWidth`` for a `String`, the type every label is: one pass over the
    /// UTF-8 (``TextScan``) for ASCII and standalone scalars, graphemes for anything else.
    package var displayWidth: Int {
        let (kind, width) = TextScan.measure(self)
        if kind != .complex { return width }
        var total = 0
        for character in self { total += character.displayWidth }
        return total
    }
}
