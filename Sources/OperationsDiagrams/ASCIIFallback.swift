import Foundation

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
