import Foundation
import Operations
import OperationsDiagrams
import Testing

/// PlantUML and Mermaid exports of one trace carry the same participants and messages, in the
/// same order, as each other and as the trace.
struct ExportParityTests {
    struct Arrow: Equatable { var from: String, to: String, label: String }

    @Test(arguments: TraceFixtures.all.indices)
    func exportsAgree(fixture: Int) throws {
        let trace = TraceFixtures.all[fixture].trace()
        let plant = try PlantUMLRenderer().render(trace)
        let mermaid = try MermaidRenderer().render(trace)
        let callers = Set(trace.participants.filter { $0.kind == .caller }.map(\.id.rawValue))

        let plantParticipants = plant.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("participant ") else { return nil }
            return String(line.split(separator: " ").last ?? "")
        }
        let mermaidParticipants = mermaid.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let index = words.firstIndex(of: "participant") else { return nil }
            return String(words[index + 1])
        }.filter { !callers.contains($0) }
        #expect(plantParticipants == mermaidParticipants)

        let plantArrows = plant.split(separator: "\n").compactMap(Self.plantArrow)
        let mermaidArrows = mermaid.split(separator: "\n").compactMap { Self.mermaidArrow($0, callers: callers) }
        #expect(plantArrows == mermaidArrows)
        #expect(plantArrows.map(\.label) == trace.messages.map(\.label))
    }

    static func plantArrow(_ line: Substring) -> Arrow? {
        guard !line.hasPrefix("note"), let colon = line.range(of: " : ") else { return nil }
        let head = line[..<colon.lowerBound].split(separator: " ")
        let label = String(line[colon.upperBound...])
        if head.count == 3 { return Arrow(from: String(head[0]), to: String(head[2]), label: label) }
        if head.count == 2, head[0].hasPrefix("[") {
            return head[0].hasPrefix("[<")
                ? Arrow(from: String(head[1]), to: "edge", label: label)
                : Arrow(from: "edge", to: String(head[1]), label: label)
        }
        return nil
    }

    static func mermaidArrow(_ line: Substring, callers: Set<String>) -> Arrow? {
        let text = line.trimmingPrefix("    ")
        guard !text.hasPrefix("Note"), let colon = text.range(of: ": ") else { return nil }
        let head = text[..<colon.lowerBound]
        for glyph in ["-->>", "->>", "-)"] {
            guard let range = head.range(of: glyph) else { continue }
            var from = String(head[..<range.lowerBound])
            var to = String(head[range.upperBound...])
            if callers.contains(from) { from = "edge" }
            if callers.contains(to) { to = "edge" }
            return Arrow(from: from, to: to, label: String(text[colon.upperBound...]))
        }
        return nil
    }
}
