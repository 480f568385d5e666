package import Foundation
import Testing

/// What the article example tests compare: the code between an example's markers in its test
/// file, and the article that must show it byte for byte, so an article's example can never stop
/// compiling.
package enum ArticleText {
    /// The repository's root: this file is `Tests/OperationsTestSupport/ArticleText.swift`.
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The code between the lines `// <name> example begin` and `// <name> example end` of `file`,
    /// each marker present once; the code ends with its last line's newline.
    package static func example(_ name: String, in file: String) throws -> String {
        let source = try String(contentsOf: URL(fileURLWithPath: file), encoding: .utf8)
        let afterBegin = source.components(separatedBy: "// \(name) example begin\n")
        try #require(afterBegin.count == 2, "one begin marker for \(name) in \(file)")
        let beforeEnd = afterBegin[1].components(separatedBy: "// \(name) example end\n")
        try #require(beforeEnd.count == 2, "one end marker for \(name) in \(file)")
        return beforeEnd[0]
    }

    /// The text of the article at `path`, relative to the repository's root.
    package static func article(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Whether `article` has a ```swift block that is `imports`, a blank line and `example`,
    /// nothing else.
    package static func shows(_ example: String, importing imports: [String], in article: String) -> Bool {
        let header = imports.map { "import \($0)\n" }.joined()
        return article.contains("```swift\n" + header + "\n" + example + "```\n")
    }
}
