import Operations
import OperationsDiagrams
import Testing

/// Properties of the text renderer that hold for every trace and width.
struct TextDiagramRendererTests {
    static let widths = [60, 72, 80, 100, 140]

    @Test(arguments: TraceFixtures.all.indices)
    func everyLineFitsAndIsClean(fixture: Int) throws {
        let trace = TraceFixtures.all[fixture].trace()
        for width in Self.widths {
            let unicode: String
            do {
                unicode = try TextDiagramRenderer(maxWidth: width).render(trace)
            } catch {
                // Reported instead of overflowing; only the widest fixture may hit this at 60.
                guard case .diagramTooNarrow(let required, let available) = error else { throw error }
                #expect(required > available && available == 60)
                continue
            }
            let ascii = try TextDiagramRenderer(maxWidth: width, charset: .ascii).render(trace)
            #expect(unicode.hasSuffix("\n") && !unicode.hasSuffix("\n\n"))
            #expect(!unicode.contains("\t") && !unicode.contains("\r"))
            #expect(ascii.utf8.allSatisfy { $0 < 0x80 }, "ASCII output is 7-bit")
            let unicodeLines = unicode.split(separator: "\n", omittingEmptySubsequences: false)
            let asciiLines = ascii.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(unicodeLines.count == asciiLines.count, "same lines in both charsets")
            for (line, asciiLine) in zip(unicodeLines, asciiLines) {
                #expect(line.displayWidth <= width)
                #expect(line.last != " ")
                #expect(line.displayWidth == asciiLine.displayWidth, "same columns in both charsets")
                // Every drawing glyph stands in the same column in both charsets.
                for (character, asciiCharacter) in zip(line, asciiLine) where "│┌┐└┘├╳".contains(character) {
                    #expect("|+X".contains(asciiCharacter))
                }
            }
            #expect(try TextDiagramRenderer(maxWidth: width).render(trace) == unicode, "deterministic")
        }
    }

    /// Cells write a grapheme of up to seven bytes as one word; longer ones (an emoji joined
    /// with ZWJ, a flag) take another path, and must still arrive whole, in every charset.
    @Test func longGraphemesArriveWhole() throws {
        let family = "👨‍👩‍👧"
        let flag = "🇺🇦"
        let caller = Participant.caller("App")
        let operation = Participant.operation("Op")
        let service = Participant.keyService("Store")
        let trace = Trace(events: [
            .declare(caller), .declare(operation), .declare(service),
            .launch(operation.id, by: caller.id, "hi \(family) café…"),
            .call(from: operation.id, to: service.id, "save(\(flag))"),
            .reply(from: service.id, to: operation.id, "ok \(family)"),
            .finish(operation.id, to: caller.id, "done \(flag)"),
        ])
        let text = try TextDiagramRenderer(maxWidth: 60).render(trace)
        #expect(text.filter { $0 == Character(family) }.count == 2, "both families whole")
        #expect(text.filter { $0 == Character(flag) }.count == 2, "both flags whole")
        #expect(text.contains("café…"))
        for line in text.split(separator: "\n") { #expect(line.displayWidth <= 60) }
        let ascii = try TextDiagramRenderer(maxWidth: 60, charset: .ascii).render(trace)
        #expect(ascii.utf8.allSatisfy { $0 < 0x80 })
        #expect(ascii.split(separator: "\n").count == text.split(separator: "\n").count)
    }

    @Test func neverMoreThanOneBlankRowBetweenSteps() throws {
        let text = try TextDiagramRenderer().render(TraceFixtures.phoneOpTarget)
        let lines = text.split(separator: "\n")
        // A row is blank when it shows only lifelines and bars.
        let blank = lines.map { $0.allSatisfy { " │".contains($0) } }
        #expect(!zip(blank, blank.dropFirst()).contains { $0 && $1 })
    }

    @Test func tooNarrowIsReportedNotOverflowed() {
        #expect(throws: TraceError.self) {
            try TextDiagramRenderer(maxWidth: 30).render(TraceFixtures.phoneOpTarget)
        }
        do {
            _ = try TextDiagramRenderer(maxWidth: 30).render(TraceFixtures.phoneOpTarget)
        } catch {
            #expect("\(error)".contains("maximum width is 30"))
        }
    }

    @Test func aMessageThatFitsOnlyAddsItsRows() throws {
        var events = TraceFixtures.twoKeyServices.events
        let before = try TextDiagramRenderer().render(Trace(events: events))
        events.insert(.call(from: "PhoneOp", to: "AuthAPI", "ping"), at: events.count - 1)
        let after = try TextDiagramRenderer().render(Trace(events: events))
        let beforeLines = before.split(separator: "\n")
        let afterLines = after.split(separator: "\n")
        #expect(afterLines.count == beforeLines.count + 3, "one blank row, one label row, one arrow row")
        #expect(Array(afterLines.prefix(18)) == Array(beforeLines.prefix(18)))
        #expect(Array(afterLines.suffix(8)) == Array(beforeLines.suffix(8)))
    }

    @Test func largeTracesRenderWithinTheWidth() throws {
        let services = (1...7).map { Participant.keyService("Service\($0)") }
        var events: [TraceEvent] = [.declare(.caller("Caller")), .declare(.operation("Op"))]
        events += services.map { .declare($0) }
        events.append(.launch("Op", by: "Caller", "launch"))
        for index in 0..<500 {
            let service = services[index % services.count].id
            events.append(.call(from: "Op", to: service, "request\(index)(value: \(index * 7))"))
            events.append(.reply(from: service, to: "Op", "response\(index)"))
        }
        events.append(.finish("Op", to: "Caller", "onFinish"))
        let text = try TextDiagramRenderer().render(Trace(events: events))
        #expect(text.split(separator: "\n").allSatisfy { $0.displayWidth <= 100 })
        #expect(text.split(separator: "\n").count > 3_000)
    }
}
