import Operations
import OperationsDiagrams
import Testing

/// The text renderer against golden files, at widths 80 and 100 in both charsets.
struct TextDiagramGoldenTests {
    static let cases: [(fixture: Int, width: Int, charset: DiagramCharset)] =
        TraceFixtures.all.indices.flatMap { fixture in
            [100, 80].flatMap { width in [DiagramCharset.unicode, .ascii].map { (fixture, width, $0) } }
        }

    @Test(arguments: cases)
    func matchesGolden(fixture: Int, width: Int, charset: DiagramCharset) throws {
        let (name, trace) = TraceFixtures.all[fixture]
        let text = try TextDiagramRenderer(maxWidth: width, charset: charset).render(trace())
        let suffix = charset == .unicode ? "unicode" : "ascii"
        Golden.expect(text, matches: "\(name).\(width).\(suffix).txt")
    }
}
