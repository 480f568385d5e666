import Foundation

/// A value from a journal or a trace written into a page, escaped for the one context it goes
/// in, so a step name, label or error holding markup or script shows as text (issue 39, part 3).
/// SVG text is escaped by `SVGDiagramRenderer`, which writes it.
///
/// Control characters a journal may hold (C0 but tab and newline, DEL, C1) are shown as their
/// Unicode control pictures (`␀`, `␛`, `␡`) or U+FFFD, never written raw: a browser would drop
/// or mangle them, and a reader would not see that they are there.
enum HTMLEscaping {
    /// `value` as HTML text between tags: `&`, `<`, `>` as entities.
    static func text(_ value: String) -> String {
        escaped(value, quotes: false)
    }

    /// `value` as the value of a double-quoted attribute: also `"` and `'` as entities, so it
    /// cannot end the attribute whatever quote the page uses.
    static func attribute(_ value: String) -> String {
        escaped(value, quotes: true)
    }

    /// `value` as one component of a URL's path or query: every byte of its UTF-8 but the
    /// unreserved characters (RFC 3986: letters, digits, `-._~`) percent-encoded, so it can
    /// neither end the component (`/`, `?`, `&`, `=`, `#`) nor the attribute the URL is put in.
    static func urlComponent(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += byte < 16 ? "%0\(hex)" : "%\(hex)"
            }
        }
        return result
    }

    private static func escaped(_ value: String, quotes: Bool) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "'" where quotes: result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}": result.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            case "\u{7F}": result += "\u{2421}"
            case "\u{80}"..."\u{9F}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
