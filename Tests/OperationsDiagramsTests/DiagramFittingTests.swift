import Foundation
import Operations
import OperationsDiagrams
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
        let launch = try #require(
            events.firstIndex { if case .launch("ReserveStockOp1", _, _) = $0.kind { true } else { false } })
        events.insert(.openFrame(.loop, "retry 2 of 3: timeout", by: "CheckoutScenario"), at: launch)
        let finish = try #require(
            events.firstIndex { if case .finish("ReserveStockOp1", _, _) = $0.kind { true } else { false } })
        events.insert(.closeFrame, at: finish + 1)
        let text = try TextDiagramRenderer(maxWidth: 60).render(Trace(events: events))
        #expect(text.contains("step 2 of 6: ReserveStockOp1 in loop [retry 2 of 3: timeout]"))
    }

    @Test func aStepWhoseLifelinesCannotFitNamesTheWidthThatWould() throws {
        // One step calling twelve services: no abbreviation or split makes that fit 40 columns.
        var events: [TraceEvent] = [
            .declare(.caller("App")), .declare(.operation("Scenario")), .declare(.operation("FanOutOp")),
        ]
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

    @Test func aSectionCarriesTheScenariosNotesAboutItsStep() throws {
        var events = Self.wideScenario(steps: 6, services: 6).events
        let second = try #require(
            events.firstIndex { if case .launch("ReserveStockOp1", _, _) = $0.kind { true } else { false } })
        events.insert(.note(over: "CheckoutScenario", "cart sim…cart\nside effects, key idk…0002"), at: second)
        let end = try #require(
            events.lastIndex { if case .finish("CheckoutScenario", _, _) = $0.kind { true } else { false } })
        events.insert(.note(over: "CheckoutScenario", "stopped: ReserveStockOp5 failed: no stock"), at: end)
        let trace = Trace(events: events)

        let sections = trace.sections()
        #expect(sections[1].notesBefore == ["cart sim…cart\nside effects, key idk…0002"])
        #expect(sections[0].notesBefore.isEmpty && sections[1].notesAfter.isEmpty)
        #expect(sections[5].notesAfter == ["stopped: ReserveStockOp5 failed: no stock"])

        // The sections' launcher is their left edge, with no lifeline for a note: the notes are
        // printed under the heading (and under the last drawing), one line per paragraph.
        let text = try TextDiagramRenderer(maxWidth: 60, charset: .ascii).render(trace)
        #expect(text.contains("step 2 of 6: ReserveStockOp1\n  cart sim~cart\n  side effects, key idk~0002\n\n"))
        #expect(text.hasSuffix("\n\n  stopped: ReserveStockOp5 failed: no stock\n"))
    }

    @Test func aNoteCoversIdleLifelinesButStopsShortOfAnOpenBar() throws {
        let note = "a note long enough to want far more room than one gap between two lifelines"
        func trace(busy: Bool) -> Trace {
            var events: [TraceEvent] = [
                .declare(.caller("Test")), .declare(.operation("A")), .declare(.keyService("B")),
                .declare(.keyService("C")), .launch("A", by: "Test", "launch"),
            ]
            if busy { events.append(.call(from: "A", to: "C", "work")) }
            events.append(.note(over: "A", note))
            if busy { events.append(.reply(from: "C", to: "A", "done")) }
            events.append(.call(from: "A", to: "B", "ask"))
            events.append(.reply(from: "B", to: "A", "ok"))
            events.append(.finish("A", to: "Test", "onFinish"))
            return Trace(events: events)
        }
        func noteRows(_ text: String) -> [Substring] { text.split(separator: "\n").filter { $0.contains("║") } }
        func lifelineColumn(_ text: String, _ name: String) throws -> Int {
            let head = try #require(text.split(separator: "\n").first { $0.contains("│\(name)│") })
            let start = try #require(head.range(of: "│\(name)│"))
            return head.distance(from: head.startIndex, to: start.lowerBound) + (name.count + 1) / 2
        }

        // Idle B and C: the note runs over both, to the drawing's right edge.
        let idle = try TextDiagramRenderer(maxWidth: 100).render(trace(busy: false))
        let idleRows = noteRows(idle)
        let bColumn = try lifelineColumn(idle, "B")
        #expect(idleRows.allSatisfy { (Array($0).lastIndex(of: "║") ?? 0) > bColumn })

        // C's bar is open (A called it): the box ends before C's lifeline, B's is covered.
        let busy = try TextDiagramRenderer(maxWidth: 100).render(trace(busy: true))
        let cColumn = try lifelineColumn(busy, "C")
        for row in noteRows(busy) {
            let characters = Array(row)
            let boxEnd = try #require(characters.lastIndex(of: "║"))
            #expect(boxEnd < cColumn - 1)
            #expect(characters[cColumn - 1...cColumn + 1] == ["│", " ", "│"])
        }
        #expect(noteRows(busy).count > idleRows.count)
    }
}
