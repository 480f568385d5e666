import Foundation
import Operations
import Testing

/// What the text renderer does when the lifelines do not fit, in the order the issue pins:
/// criterion 2's wrapping first, then abbreviated names with a legend, then one section per
/// step, and only then an error naming the width that works.
struct DiagramFittingTests {
    /// A scenario launching `steps` operations, each calling `services` key services with long
    /// names: too wide for a narrow page whole, narrow enough step by step.
    private static func wideScenario(steps: Int, services: Int, label: String = "fetch(id)") -> Trace {
        var events: [TraceEvent] = [.declare(.caller("App")), .declare(.operation("CheckoutScenario"))]
        for service in 0..<services { events.append(.declare(.keyService("InventoryService\(service)"))) }
        events.append(.launch("CheckoutScenario", by: "App", "launch"))
        for step in 0..<steps {
            let op = Participant.ID("ReserveStockOp\(step)")
            events.append(.declare(.operation(op.rawValue)))
            events.append(.launch(op, by: "CheckoutScenario", "launch(cart)"))
            let service = Participant.ID("InventoryService\(step % services)")
            events.append(.call(from: op, to: service, label))
            events.append(.reply(from: service, to: op, "ok"))
            events.append(.finish(op, to: "CheckoutScenario", "onFinish(ok)"))
        }
        events.append(.finish("CheckoutScenario", to: "App", "onFinish(ok)"))
        return Trace(events: events)
    }

    private static func widest(_ text: String) -> Int {
        text.split(separator: "\n").map(\.count).max() ?? 0
    }

    @Test func namesAreAbbreviatedWithALegendBeforeAnythingIsSplit() throws {
        let trace = Self.wideScenario(steps: 3, services: 2)
        #expect(throws: TraceError.self) { try TextDiagramRenderer(maxWidth: 80, fitting: .strict).render(trace) }
        let text = try TextDiagramRenderer(maxWidth: 80).render(trace)
        #expect(Self.widest(text) <= 80)
        #expect(text.contains("│CS│"))
        #expect(text.contains("\nCS = CheckoutScenario\n"))
        #expect(text.contains("\nIS0 = InventoryService0\n"))
        #expect(!text.contains("step 1 of"))
    }

    @Test(arguments: [DiagramCharset.unicode, .ascii])
    func aRunTooWideEvenAbbreviatedIsDrawnStepByStep(charset: DiagramCharset) throws {
        let trace = Self.wideScenario(steps: 6, services: 6)
        let text = try TextDiagramRenderer(maxWidth: 60, charset: charset).render(trace)
        #expect(Self.widest(text) <= 60)
        let titles = text.split(separator: "\n").filter { $0.hasPrefix("step ") }
        #expect(titles.count == 6)
        #expect(titles.first == "step 1 of 6: ReserveStockOp0")
        // Each section has only the lifelines of its step.
        let firstSection = text.components(separatedBy: "step 2 of 6")[0]
        #expect(firstSection.contains("InventoryService0"))
        #expect(!firstSection.contains("InventoryService1"))
        if charset == .ascii { #expect(text.utf8.allSatisfy { $0 < 0x80 }) }
    }

    @Test func aSectionShowsTheFramesItRanInside() throws {
        var events = Self.wideScenario(steps: 6, services: 6).events
        let launch = try #require(events.firstIndex { if case .launch("ReserveStockOp1", _, _) = $0.kind { true } else { false } })
        events.insert(.openFrame(.loop, "retry 2 of 3: timeout", by: "CheckoutScenario"), at: launch)
        let finish = try #require(events.firstIndex { if case .finish("ReserveStockOp1", _, _) = $0.kind { true } else { false } })
        events.insert(.closeFrame, at: finish + 1)
        let text = try TextDiagramRenderer(maxWidth: 60).render(Trace(events: events))
        #expect(text.contains("step 2 of 6: ReserveStockOp1 in loop [retry 2 of 3: timeout]"))
    }

    @Test func aStepWhoseLifelinesCannotFitNamesTheWidthThatWould() throws {
        // One step calling twelve services: no abbreviation or split makes that fit 40 columns.
        var events: [TraceEvent] = [.declare(.caller("App")), .declare(.operation("Scenario")), .declare(.operation("FanOutOp"))]
        events.append(.launch("Scenario", by: "App", "launch"))
        events.append(.launch("FanOutOp", by: "Scenario", "launch"))
        for service in 0..<12 {
            let id = Participant.ID("InventoryService\(service)")
            events.append(.declare(.keyService(id.rawValue)))
            events.append(.call(from: "FanOutOp", to: id, "get"))
            events.append(.reply(from: id, to: "FanOutOp", "ok"))
        }
        events.append(.finish("FanOutOp", to: "Scenario", "onFinish"))
        events.append(.finish("Scenario", to: "App", "onFinish"))
        let trace = Trace(events: events)
        do {
            _ = try TextDiagramRenderer(maxWidth: 40).render(trace)
            Issue.record("twelve lifelines should not fit 40 columns")
        } catch .diagramTooNarrow(let required, let available) {
            #expect(available == 40)
            #expect(required > 40)
            // The width it names is one that works.
            let text = try TextDiagramRenderer(maxWidth: required).render(trace)
            #expect(Self.widest(text) <= required)
        }
    }
}
