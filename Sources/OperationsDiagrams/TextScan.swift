import Operations

/// One pass over a label's UTF-8 that tells how the rest of rendering may treat it.
///
/// Nearly every label is printable ASCII, or ASCII with a few scalars that are graphemes of their
/// own (the `…` of a redacted token, `é`, an arrow). For those, a grapheme is one scalar, so
/// measuring and wrapping can walk the bytes and decode the odd scalar by hand instead of
/// segmenting graphemes. Anything else takes the grapheme-by-grapheme paths.
enum TextScan {
    /// What a label is made of.
    enum Kind: Equatable {
        /// Printable ASCII only: every byte is a grapheme of width 1.
        case ascii
        /// Only scalars that are graphemes of their own (``Unicode/Scalar/isStandaloneGrapheme``),
        /// at least one of them not ASCII.
        case standalone
        /// Anything else: control characters, combining marks, emoji, wide text.
        case complex
    }

    /// The kind of `text` and, unless it is complex, its display width.
    static func measure(_ text: String) -> (kind: Kind, width: Int) {
        let bytes = Array(text.utf8)
        var index = 0
        var width = 0
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard byte >= 0x20 && byte != 0x7F else { return (.complex, 0) }
                width += 1
                index += 1
                continue
            }
            ascii = false
            guard let (scalar, length) = decode(bytes, at: index), scalar.isStandaloneGrapheme else {
                return (.complex, 0)
            }
            width += scalar.standaloneDisplayWidth
            index += length
        }
        return (ascii ? .ascii : .standalone, width)
    }

    /// The scalar whose encoding starts at `index` of valid UTF-8, and its length in bytes; `nil`
    /// for a four-byte scalar, which is never a standalone grapheme.
    static func decode(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = UInt32(bytes[index])
        let value: UInt32
        let length: Int
        if lead < 0xE0 {
            value = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
            length = 2
        } else if lead < 0xF0 {
            value = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
            length = 3
        } else {
            return nil
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
