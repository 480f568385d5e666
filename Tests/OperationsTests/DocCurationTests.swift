import Foundation
import Testing

/// Every public type of a library with a documentation catalog is curated there: named in a
/// Topics section or an article (``Name``), so a reader of the catalog can find it. A public
/// type added without a place in the docs fails here, in `swift test`, not in a review.
struct DocCurationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: [
        "Operations", "OperationsJournal", "OperationsDiagrams", "OperationsExplorer", "OperationsTesting",
        "OperationsRunner",
    ])
    func everyPublicTypeIsCurated(module: String) throws {
        let sources = Self.root.appendingPathComponent("Sources/\(module)")
        let catalog = sources.appendingPathComponent("\(module).docc")
        let pages = try Self.files(in: catalog, ending: ".md").map { try String(contentsOf: $0, encoding: .utf8) }
            .joined(separator: "\n")
        let declared = try Self.files(in: sources, ending: ".swift").flatMap { file in
            try Self.publicTypes(in: String(contentsOf: file, encoding: .utf8))
        }
        #expect(declared.count > 3, "found no public types in \(sources.path)")
        let uncurated = Set(declared.filter { !pages.contains("``\($0)``") }).sorted()
        #expect(uncurated.isEmpty, "not in \(module).docc: \(uncurated.joined(separator: ", "))")
    }

    /// The names of the top-level public types a Swift file declares.
    static func publicTypes(in source: String) -> [String] {
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
        return source.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("public ") else { return nil }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "<" || $0 == ":" || $0 == "=" })
            guard let kind = words.firstIndex(where: { kinds.contains($0) }), kind + 1 < words.count else {
                return nil
            }
            return String(words[kind + 1])
        }
    }

    static func files(in directory: URL, ending suffix: String) throws -> [URL] {
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix(suffix) }
    }
}
