import Foundation

#if canImport(FoundationXML)
    // Linux: XMLParser is in FoundationXML; on Apple platforms Foundation has it.
    import FoundationXML
#endif

/// An SVG document read back with Foundation's XML parser: what the SVG tests check, from the
/// bytes a browser would get rather than from the renderer's insides.
struct SVGReading {
    /// A `<text>` element: its pixel box on its baseline and what a viewer shows.
    struct Text {
        let x: Int
        let y: Int
        let width: Int
        let content: String
    }

    /// The names of the elements, in document order.
    let elements: [String]
    let texts: [Text]
    /// The root element's `width`.
    let width: Int

    /// Reads `svg`; `nil` when it is not well-formed XML.
    init?(_ svg: String) {
        let collector = Collector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        guard parser.parse() else { return nil }
        elements = collector.elements
        texts = collector.texts
        width = collector.width
    }

    /// Pairs of texts on one baseline whose boxes overlap, as `"a" / "b"`.
    var overlappingTexts: [String] {
        var result: [String] = []
        for (y, line) in Dictionary(grouping: texts, by: \.y).sorted(by: { $0.key < $1.key }) {
            let sorted = line.sorted { $0.x < $1.x }
            for (left, right) in zip(sorted, sorted.dropFirst()) where left.x + left.width > right.x {
                result.append("\"\(left.content)\" / \"\(right.content)\" at y \(y)")
            }
        }
        return result
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [String] = []
        var texts: [Text] = []
        var width = 0
        private var open: (x: Int, y: Int, width: Int)?
        private var content = ""

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append(name)
            if name == "svg" { width = Int(attributes["width"] ?? "") ?? 0 }
            if name == "text" {
                open = (
                    Int(attributes["x"] ?? "") ?? 0, Int(attributes["y"] ?? "") ?? 0,
                    Int(attributes["textLength"] ?? "") ?? 0
                )
                content = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if open != nil { content += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard name == "text", let box = open else { return }
            texts.append(Text(x: box.x, y: box.y, width: box.width, content: content))
            open = nil
        }
    }
}
