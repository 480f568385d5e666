import Foundation
import Operations
import OperationsDiagrams
import OperationsRunner
import OperationsTestSupport
import OperationsTesting
import Testing

/// Issue 28, "Diagrams that tell the truth": step numbers, sessions and retries hidden by depth,
/// as the engine draws them whatever program records the trace.
struct DiagramTruthTests {
    /// A scenario whose first step is launched twice (a retry), whose second is skipped by its
    /// condition, and whose third runs once.
    private static let retriedAndSkipped: Trace = {
        var events: [TraceEvent] = [.declare(.caller("App")), .declare(.operation("Scenario"))]
        events.append(.launch("Scenario", by: "App", "launch"))
        for op in ["FirstOp", "ThirdOp"] { events.append(.declare(.operation(op))) }
        events += [
            .launch("FirstOp", by: "Scenario", "launch"), .finish("FirstOp", to: "Scenario", "onFinish(error)"),
            .openFrame(.loop, "retry 2 of 3: unavailable", by: "Scenario"),
            .launch("FirstOp", by: "Scenario", "launch"), .finish("FirstOp", to: "Scenario", "onFinish(ok)"),
            .closeFrame,
            .note(over: "Scenario", "skipped SecondOp: its condition is false"),
            .launch("ThirdOp", by: "Scenario", "launch"), .finish("ThirdOp", to: "Scenario", "onFinish(ok)"),
            .finish("Scenario", to: "App", "onFinish(ok)"),
        ]
        return Trace(events: events)
    }()

    /// Point 4: a section is numbered by its step's place in the scenario, from 1, as a shape
    /// refusal names it — not by how many launches came before it.
    @Test func sectionsAreNumberedAsTheShapeCountsSteps() throws {
        let sections = Self.retriedAndSkipped.sections()
        #expect(sections.map(\.position) == [1, 1, 3])
        #expect(sections.map(\.stepCount) == [3, 3, 3])
        let drawn = try TextDiagramRenderer(maxWidth: 30).render(Self.retriedAndSkipped)
        #expect(drawn.contains("step 3 of 3: ThirdOp"), "\(drawn)")

        let journal = ScenarioShape(
            name: "Scenario",
            steps: ["FirstOp", "SecondOp", "ThirdOp"].enumerated().map {
                ScenarioShape.StepShape(
                    index: $0.offset, name: $0.element, input: "X", output: "X", purity: "pure", conditional: false)
            })
        let build = ScenarioShape(
            name: "Scenario",
            steps: ["FirstOp", "SecondOp", "PromoOp"].enumerated().map {
                ScenarioShape.StepShape(
                    index: $0.offset, name: $0.element, input: "X", output: "X", purity: "pure", conditional: false)
            })
        #expect(build.mismatch(journal: journal)?.path == ["step 3"])
    }

    /// Point 5: an operation drawn as a black box says it took more than one attempt.
    @Test func aRetryInsideABlackBoxIsNoted() throws {
        let trace = Trace(events: [
            .declare(.caller("App")), .declare(.operation("Scenario")), .declare(.operation("PhoneOp")),
            .declare(.keyService("AuthAPI")),
            .launch("Scenario", by: "App", "launch"), .launch("PhoneOp", by: "Scenario", "launch"),
            .call(from: "PhoneOp", to: "AuthAPI", "requestCode"), .reply(from: "AuthAPI", to: "PhoneOp", "503"),
            .note(over: "PhoneOp", "retry 2 of 3: unavailable"),
            .call(from: "PhoneOp", to: "AuthAPI", "requestCode"), .reply(from: "AuthAPI", to: "PhoneOp", "token"),
            .finish("PhoneOp", to: "Scenario", "onFinish(token)"), .finish("Scenario", to: "App", "onFinish"),
        ])
        let shallow = trace.limited(toDepth: 2)
        #expect(shallow.events.contains(.note(over: "PhoneOp", "took 2 attempts")))
        #expect(!trace.limited(toDepth: 3).events.contains(.note(over: "PhoneOp", "took 2 attempts")))
        #expect(try PlantUMLRenderer().render(shallow).contains("note over PhoneOp : took 2 attempts"))
    }

    /// Points 2 and 3: a divider is drawn across the diagram in every format, and Mermaid, which
    /// has none, gets a note across the lifelines.
    @Test func aDividerIsDrawnInEveryFormat() throws {
        let trace = Trace(events: [
            .declare(.caller("App")), .declare(.operation("Op")),
            .divider("S: run (session 1 of 2)"),
            .launch("Op", by: "App", "launch"), .finish("Op", to: "App", "onFinish"),
            .divider("S: rerun 1 (session 2 of 2)"),
            .launch("Op", by: "App", "launch"), .finish("Op", to: "App", "onFinish"),
        ])
        #expect(try PlantUMLRenderer().render(trace).contains("\n== S: rerun 1 (session 2 of 2) ==\n"))
        #expect(
            try MermaidRenderer().render(trace).contains("\n    Note over App,Op: ══ S: rerun 1 (session 2 of 2) ══\n"))
        let text = try TextDiagramRenderer().render(trace)
        #expect(text.contains("══ S: rerun 1 (session 2 of 2) ══"), "\(text)")
        let ascii = try TextDiagramRenderer(charset: .ascii).render(trace)
        #expect(ascii.contains("== S: rerun 1 (session 2 of 2) =="), "\(ascii)")
        #expect(try Trace(jsonData: trace.jsonData()) == trace)
    }

    /// A drawing too wide for the page is drawn step by step; each session's divider is still
    /// spelled in the drawing's charset (ASCII once read `?? S: run … ??`).
    @Test func aDividerOfADrawingSplitIntoStepsIsInTheCharset() throws {
        let steps = (1...8).map { "AnOperationWithALongName\($0)" }
        var events: [TraceEvent] = [.declare(.caller("App")), .declare(.operation("S"))]
        events += steps.map { .declare(.operation($0)) }
        for session in ["S: run (session 1 of 2)", "S: rerun 1 (session 2 of 2)"] {
            events.append(.divider(session))
            events.append(.launch("S", by: "App", "launch"))
            for step in steps {
                events += [
                    .launch(Participant.ID(step), by: "S", "launch"), .finish(Participant.ID(step), to: "S", "done"),
                ]
            }
            events.append(.finish("S", to: "App", "onFinish"))
        }
        let ascii = try TextDiagramRenderer(maxWidth: 60, charset: .ascii).render(Trace(events: events))
        #expect(ascii.contains("== S: rerun 1 (session 2 of 2) =="), "\(ascii)")
        #expect(!ascii.contains("??"), "\(ascii)")
        #expect(ascii.utf8.allSatisfy { $0 < 0x80 })
    }

    /// Point 3: a file of two sessions reads back with a divider where each starts.
    @Test func recordedSessionsAreMarked() throws {
        let session = """
            {"session":true,"version":1}
            {"kind":"declare","participant":{"name":"App","id":"App","kind":"caller"}}
            {"kind":"declare","participant":{"name":"AuthScenario","id":"AuthScenario","kind":"operation"}}
            {"kind":"launch","by":"App","participant":"AuthScenario","label":"launch"}
            {"kind":"finish","to":"App","participant":"AuthScenario","label":"onFinish"}

            """
        let recorded = try Trace.recorded(jsonLines: Data((session + session).utf8))
        let dividers = recorded.markingSessions().events.compactMap { event -> String? in
            if case .divider(let label) = event.kind { label } else { nil }
        }
        #expect(dividers == ["AuthScenario: run (session 1 of 2)", "AuthScenario: rerun 1 (session 2 of 2)"])
    }
}
