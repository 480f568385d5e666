import Foundation
import Operations
import OperationsDiagrams
import OperationsRunner
import Testing

/// Frames in the trace model: kept or dropped with their opener's insides, closed when a
/// session was cut, dropped when empty, and drawn within the width in every format.
struct TraceFrameTests {
    private static let events: [TraceEvent] = [
        .declare(.caller("App")), .declare(.operation("Scenario")), .declare(.operation("Op")),
        .declare(.keyService("API")),
        .launch("Scenario", by: "App", "launch"),
        .openFrame(.loop, "retry 2 of 3: HTTP 503", by: "Scenario"),
        .launch("Op", by: "Scenario", "launch(x)"),
        .openFrame(.opt, "cache cold", by: "Op"),
        .call(from: "Op", to: "API", "fetch"),
        .reply(from: "API", to: "Op", "data"),
        .closeFrame,
        .finish("Op", to: "Scenario", "onFinish(y)"),
        .closeFrame,
        .finish("Scenario", to: "App", "onFinish(y)"),
    ]

    @Test func limitingDepthDropsTheFramesOfTheInsidesItDrops() throws {
        let trace = Trace(events: Self.events)
        func frames(_ trace: Trace) -> [String] {
            trace.events.compactMap {
                if case .frameOpen(_, let label, _) = $0.kind { label } else { nil }
            }
        }
        #expect(frames(trace.limited(toDepth: 3)) == ["retry 2 of 3: HTTP 503", "cache cold"])
        let scenarioOnly = trace.limited(toDepth: 2)
        #expect(frames(scenarioOnly) == ["retry 2 of 3: HTTP 503"])
        try scenarioOnly.validate()
        // At depth 1 the scenario is a black box: its frame goes with its insides.
        #expect(frames(trace.limited(toDepth: 1)).isEmpty)
        try trace.limited(toDepth: 1).validate()
    }

    @Test func aFrameAroundNothingIsNotDrawn() throws {
        let trace = Trace(events: [
            .declare(.caller("App")), .declare(.operation("Op")),
            .openFrame(.group, "outer", by: "App"),
            .openFrame(.loop, "empty", by: "App"), .closeFrame,
            .closeFrame,
            .launch("Op", by: "App", "launch"), .finish("Op", to: "App", "onFinish"),
        ])
        for diagram in [
            try TextDiagramRenderer().render(trace), try PlantUMLRenderer().render(trace),
            try MermaidRenderer().render(trace),
        ] {
            #expect(!diagram.contains("empty"), "\(diagram)")
            #expect(!diagram.contains("outer"), "\(diagram)")
        }
        // No frame drawn, no border columns kept for one.
        let text = try TextDiagramRenderer().render(trace)
        #expect(text.split(separator: "\n").allSatisfy { !$0.hasPrefix("│") })
    }

    @Test(arguments: [DiagramCharset.unicode, .ascii])
    func aLongReasonEndsInAnEllipsisOnItsRule(charset: DiagramCharset) throws {
        let reason = String(repeating: "the server is unavailable ", count: 8)
        var events = Self.events
        events[5] = .openFrame(.loop, reason, by: "Scenario")
        let text = try TextDiagramRenderer(maxWidth: 60, charset: charset).render(Trace(events: events))
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.displayWidthForTest <= 60 })
        let rule = try #require(lines.first { $0.contains("loop [the server") })
        #expect(rule.contains(charset == .unicode ? "…" : "~"))
        #expect(rule.hasSuffix(charset == .unicode ? "┐" : "+"))
    }

    @Test func everyFrameIsOneOfTheFormatsBlocks() throws {
        let trace = Trace(events: Self.events)
        let plantUML = try PlantUMLRenderer().render(trace)
        #expect(plantUML.contains("\nloop retry 2 of 3: HTTP 503\n"))
        #expect(plantUML.contains("\nopt cache cold\n"))
        #expect(plantUML.components(separatedBy: "\nend\n").count == 3)
        let mermaid = try MermaidRenderer().render(trace)
        #expect(mermaid.contains("    loop retry 2 of 3: HTTP 503\n"))
        #expect(mermaid.contains("    opt cache cold\n"))
        let text = try TextDiagramRenderer().render(trace)
        #expect(text.contains("┌─ loop [retry 2 of 3: HTTP 503] ─"))
        #expect(text.contains("┌─ opt [cache cold] ─"))
    }

    @Test func aCutSessionClosesItsOpenFrames() throws {
        let lines = [
            #"{"session":true,"version":1}"#,
            #"{"kind":"declare","participant":{"id":"App","kind":"caller","name":"App"}}"#,
            #"{"kind":"declare","participant":{"id":"Op","kind":"operation","name":"Op"}}"#,
            #"{"by":"App","frame":"loop","kind":"frame","label":"retry 2 of 3"}"#,
            #"{"by":"App","kind":"launch","label":"launch","participant":"Op"}"#,
        ]
        let recorded = try Trace.recorded(jsonLines: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(recorded.isCutOff)
        try recorded.trace.validate()
        #expect(recorded.trace.events.last == .closeFrame)
    }

    @Test func anOperationOpensItsOwnFramesThroughItsScope() throws {
        let tracer = InMemoryTracer()
        let root = TraceScope.root(tracer, caller: .caller("Test"))
        let scope = root.launch(.operation("Poller"), "launch")
        scope.openFrame(.alt, "settled")
        scope.note("paid")
        scope.nextBranch("still pending")
        scope.note("poll again")
        scope.closeFrame()
        scope.finish("onFinish")
        let trace = tracer.trace
        try trace.validate()
        let plantUML = try PlantUMLRenderer().render(trace)
        #expect(plantUML.contains("alt settled\n"))
        #expect(plantUML.contains("else still pending\n"))
        #expect(try TextDiagramRenderer().render(trace).contains("├╌ else [still pending] ╌"))
    }
}

extension Substring {
    /// Display columns for the renderer's output: box drawing and ASCII are one column each.
    fileprivate var displayWidthForTest: Int { count }
}
