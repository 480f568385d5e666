import Operations
import OperationsDiagrams
import Testing

/// The PlantUML and Mermaid exports against golden files.
struct ExportGoldenTests {
    @Test(arguments: TraceFixtures.all.indices)
    func plantUMLMatchesGolden(fixture: Int) throws {
        let (name, trace) = TraceFixtures.all[fixture]
        Golden.expect(try PlantUMLRenderer().render(trace()), matches: "\(name).puml")
    }

    @Test(arguments: TraceFixtures.all.indices)
    func mermaidMatchesGolden(fixture: Int) throws {
        let (name, trace) = TraceFixtures.all[fixture]
        Golden.expect(try MermaidRenderer().render(trace()), matches: "\(name).mmd")
    }
}
