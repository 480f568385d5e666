import Operations
import OperationsDiagrams
import Testing

/// ``DiagramFormat`` draws exactly what the renderer of each format draws, so a tool that picks
/// a format by name prints the same bytes as code that builds the renderer itself.
struct DiagramFormatTests {
    @Test(arguments: TraceFixtures.all.indices)
    func eachFormatIsItsRenderer(fixture: Int) throws {
        let trace = TraceFixtures.all[fixture].trace()
        #expect(try DiagramFormat.unicode.render(trace, width: 140) == TextDiagramRenderer(maxWidth: 140).render(trace))
        #expect(
            try DiagramFormat.ascii.render(trace, width: 140)
                == TextDiagramRenderer(maxWidth: 140, charset: .ascii).render(trace))
        #expect(try DiagramFormat.plantuml.render(trace, width: 40) == PlantUMLRenderer().render(trace))
        #expect(try DiagramFormat.mermaid.render(trace) == MermaidRenderer().render(trace))
        #expect(try DiagramFormat.svg.render(trace, width: 60) == SVGDiagramRenderer(maxWidth: 60).render(trace))
    }

    @Test(arguments: TraceFixtures.all.indices)
    func aStepIsDrawnWithItsNotesInTextAndAsItsOwnTraceInSource(fixture: Int) throws {
        let trace = TraceFixtures.all[fixture].trace()
        for section in trace.sections() {
            #expect(
                try DiagramFormat.unicode.render(section, width: 140)
                    == TextDiagramRenderer(maxWidth: 140).render(section))
            #expect(try DiagramFormat.mermaid.render(section) == MermaidRenderer().render(section.trace))
            #expect(try DiagramFormat.svg.render(section) == SVGDiagramRenderer().render(section.trace))
        }
    }

    @Test func namesAndFileExtensions() {
        #expect(DiagramFormat.allCases.map(\.rawValue) == ["unicode", "ascii", "plantuml", "mermaid", "svg"])
        #expect(DiagramFormat.allCases.map(\.fileExtension) == ["txt", "ascii.txt", "puml", "mmd", "svg"])
        #expect(DiagramFormat.allCases.filter(\.isText) == [.unicode, .ascii])
    }
}
