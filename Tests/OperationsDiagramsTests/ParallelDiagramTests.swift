import Operations
import OperationsDiagrams
import OperationsTestSupport
import OperationsTesting
import Testing

/// A parallel step is drawn as a `par` frame in all three renderers, each branch whole.
struct ParallelDiagramTests {
    private func trace() throws -> Trace {
        let tracer = InMemoryTracer()
        var context = OpContext(3)
        context.trace = .root(tracer, caller: .caller("Caller"))
        let scenario = Scenario<Int, String>("Both") { chain in
            chain
                .parallel("DoubleAndDescribe", Step("Double") { DoubleOp() }, Step("Describe") { DescribeOp() })
                .map { doubled, described in "\(doubled) \(described)" }
        }
        _ = try scenario.launchAndWait(context)
        return tracer.trace
    }

    @Test func plantUMLDrawsAParBlockWithAnElsePerBranch() throws {
        let text = try DiagramFormat.plantuml.render(trace())
        let lines = text.split(separator: "\n").map(String.init)
        let open = try #require(lines.firstIndex(of: "par DoubleAndDescribe"))
        let branch = try #require(lines.firstIndex(of: "else Describe"))
        #expect(open < branch)
        #expect(
            lines[open..<branch].contains { $0.contains("launch(3)") },
            "the first branch is drawn whole before the second")
    }

    @Test func mermaidDrawsAParBlockWithAnAndPerBranch() throws {
        let text = try DiagramFormat.mermaid.render(trace())
        #expect(text.contains("    par DoubleAndDescribe\n"))
        #expect(text.contains("    and Describe\n"))
    }

    @Test func theTextRendererDrawsItsOwnFrameWithAnAndDivider() throws {
        let text = try DiagramFormat.unicode.render(trace(), width: 100)
        #expect(text.contains("par [DoubleAndDescribe]"), "\(text)")
        #expect(text.contains("and [Describe]"), "\(text)")
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }
}
