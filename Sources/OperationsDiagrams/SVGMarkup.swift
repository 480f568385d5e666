/// SVG elements written as text, every text from a trace escaped.
///
/// Coordinates are whole pixels, written in the order the painter adds them, so identical
/// drawings are identical bytes. Only ``text(_:x:y:width:bold:)`` takes text from a trace; the
/// other elements take numbers and the painter's own style attributes.
struct SVGMarkup {
    private(set) var text = ""

    mutating func line(_ x1: Int, _ y1: Int, _ x2: Int, _ y2: Int, _ style: String = "") {
        text += "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\"\(style)/>\n"
    }

    mutating func rect(_ x: Int, _ y: Int, _ width: Int, _ height: Int, _ style: String = "") {
        text += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\"\(style)/>\n"
    }

    /// A text exactly `width` pixels wide from `x`, its baseline at `y`; `bold` sets a prefix of
    /// it (a frame's keyword) in bold.
    mutating func text(_ content: String, x: Int, y: Int, width: Int, bold: String = "") {
        text += "<text x=\"\(x)\" y=\"\(y)\" textLength=\"\(width)\" lengthAdjust=\"spacingAndGlyphs\">"
        if !bold.isEmpty, content.hasPrefix(bold) {
            text += "<tspan font-weight=\"bold\">\(Self.escaped(bold))</tspan>"
            text += Self.escaped(String(content.dropFirst(bold.count)))
        } else {
            text += Self.escaped(content)
        }
        text += "</text>\n"
    }

    mutating func raw(_ markup: String) { text += markup }

    /// `value` as XML text or attribute content: the five markup characters as entities,
    /// whitespace other than a space as a space, and what XML 1.0 cannot hold (other control
    /// characters, U+FFFE, U+FFFF) as U+FFFD.
    static func escaped(_ value: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(value.unicodeScalars.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result += " "
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result.unicodeScalars.append("\u{FFFD}")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
