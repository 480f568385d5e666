import Foundation
import Operations
import OperationsDiagrams
import OperationsTestSupport
import Testing

// DrawingDiagrams.md's example, compiled: the block between the markers below must be the
// article's code block byte for byte (the last test checks).

// DrawingDiagrams example begin
/// A library's catalogue lookup, drawn from a real run.
enum Library {
    struct Offline: Error, RetryableError {
        var isTransient: Bool { true }
    }

    protocol Catalogue: Sendable {
        func title(of isbn: String) throws -> String
    }

    final class FindBookOp: PureOp {
        private let catalogue: any Catalogue
        init(catalogue: any Catalogue) { self.catalogue = catalogue }

        func launch(_ context: OpContext<String>, onFinish: @escaping OnFinish<String>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            // The operation records its own messages through its completion's scope; with
            // tracing off `trace` is nil and no label is built.
            let service = Participant.keyService("Catalogue")
            completion.trace?.message(to: service, "title(of: \(context.input))")
            let result = Result { try catalogue.title(of: context.input) }
            completion.trace?.reply(from: service, (try? result.get()) ?? "offline")
            completion.finish(result)
        }
    }

    static func lookUp(catalogue: any Catalogue) -> Scenario<String, String> {
        Scenario("LookUp") { chain in
            chain.then(
                Step { FindBookOp(catalogue: catalogue) }.retrying(.transient(maxAttempts: 2, backoff: .immediate)))
        }
    }

    /// Runs the lookup with a tracer and draws it in `format`: text, PlantUML or Mermaid.
    static func draw(_ isbn: String, catalogue: any Catalogue, as format: DiagramFormat) async throws -> String {
        let tracer = InMemoryTracer()
        var context = OpContext(isbn)
        context.trace = .root(tracer, caller: .caller("Reader"))
        _ = try await lookUp(catalogue: catalogue).launch(context)
        return try format.render(tracer.trace, width: 80)
    }
}
// DrawingDiagrams example end

/// Offline for the first `outages` lookups.
private final class FlakyCatalogue: Library.Catalogue, @unchecked Sendable {
    private let lock = NSLock()
    private var outages: Int

    init(outages: Int) { self.outages = outages }

    func title(of isbn: String) throws -> String {
        try lock.withLock {
            outages -= 1
            if outages >= 0 { throw Library.Offline() }
            return "Moby-Dick"
        }
    }
}

struct DrawingDiagramsExampleTests {
    @Test func theTextDiagramShowsTheMessagesAndTheRetry() async throws {
        let diagram = try await Library.draw("978-0142437247", catalogue: FlakyCatalogue(outages: 1), as: .unicode)
        #expect(diagram.contains("│Catalogue│"))
        #expect(diagram.contains("onFinish(Moby-Dick)"))
        #expect(diagram.contains("loop [retry 2 of 2: offline]"))
        #expect(diagram.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func mermaidAndPlantUMLDrawTheSameRun() async throws {
        let mermaid = try await Library.draw("978-0142437247", catalogue: FlakyCatalogue(outages: 1), as: .mermaid)
        let plantUML = try await Library.draw("978-0142437247", catalogue: FlakyCatalogue(outages: 1), as: .plantuml)
        #expect(mermaid.hasPrefix("sequenceDiagram"))
        #expect(plantUML.hasPrefix("@startuml"))
        for diagram in [mermaid, plantUML] {
            #expect(diagram.contains("loop retry 2 of 2"))
            #expect(diagram.contains("Moby-Dick"))
        }
    }

    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("DrawingDiagrams", in: #filePath)
        let article = try ArticleText.article("Sources/OperationsDiagrams/OperationsDiagrams.docc/DrawingDiagrams.md")
        #expect(ArticleText.shows(example, importing: ["Operations", "OperationsDiagrams"], in: article))
    }
}
