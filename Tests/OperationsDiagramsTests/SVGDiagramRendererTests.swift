import Foundation
import Operations
import OperationsDiagrams
import Testing

/// The SVG renderer: goldens, well-formed XML, labels that never overlap, every text escaped,
/// identical bytes for identical traces, and the picture's parts told apart.
struct SVGDiagramRendererTests {
    /// `Diagrams/` at the root of the repository.
    static let diagrams = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Diagrams")

    @Test(arguments: TraceFixtures.all.indices)
    func svgMatchesGolden(fixture: Int) throws {
        let (name, trace) = TraceFixtures.all[fixture]
        Golden.expect(try SVGDiagramRenderer().render(trace()), matches: "\(name).svg")
    }

    /// Every fixture, at a page wide enough for its labels and at one that wraps them, reads back
    /// as XML with no two texts overlapping and every text inside the picture.
    @Test(arguments: TraceFixtures.all.indices, [100, 40])
    func fixturesAreWellFormedWithoutOverlaps(fixture: Int, width: Int) throws {
        let (name, trace) = TraceFixtures.all[fixture]
        let svg = try SVGDiagramRenderer(maxWidth: width).render(trace())
        let reading = try #require(SVGReading(svg), "\(name) is not well-formed XML")
        #expect(reading.overlappingTexts == [], "\(name) at \(width)")
        #expect(!reading.texts.isEmpty)
        for text in reading.texts {
            #expect(text.x >= 0 && text.x + text.width <= reading.width, "\(name): \"\(text.content)\" sticks out")
        }
    }

    /// The committed diagrams (opctl's, the stateful variants', the checkout example's): each SVG
    /// is well-formed, its texts never overlap, and there is one beside each text diagram.
    @Test func committedSVGsAreWellFormedWithoutOverlaps() throws {
        let manager = FileManager.default
        var checked = 0
        for directory in [Self.diagrams, Self.diagrams.appendingPathComponent("Checkout")] {
            let names = try manager.contentsOfDirectory(atPath: directory.path).sorted()
            for name in names where name.hasSuffix(".txt") && !name.hasSuffix(".ascii.txt") {
                let file = directory.appendingPathComponent(String(name.dropLast(4)) + ".svg")
                let svg = try #require(try? String(contentsOf: file, encoding: .utf8), "no \(file.lastPathComponent)")
                let reading = try #require(SVGReading(svg), "\(file.lastPathComponent) is not well-formed XML")
                #expect(reading.overlappingTexts == [], "\(file.lastPathComponent)")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    /// A trace whose names, labels, notes, frames and errors hold markup shows it as text: no
    /// element of its own, the same characters read back.
    @Test func markupInATraceIsShownAsText() throws {
        let script = "<script>alert(\"x\")</script>"
        let api = Participant.keyService("<b>API</b> & 'co'")
        let trace = Trace(events: [
            .declare(.caller("App")), .declare(.operation("Op\u{1}")), .declare(api),
            .divider("session <1> ]]>"),
            .openFrame(.alt, "\" onload=\"alert(1)", by: "App"),
            .launch("Op\u{1}", by: "App", script),
            .call(from: "Op\u{1}", to: api.id, "<img src=x onerror=alert(1)>"),
            .reply(from: api.id, to: "Op\u{1}", "a & b"),
            .note(over: "Op\u{1}", "<!--x--> ]]>"),
            .finish("Op\u{1}", to: "App", "onFinish(</svg><svg onload=alert(1)>)"),
            .branch("<else>"),
            .note(over: "Op\u{1}", "&amp;"),
            .closeFrame,
        ])
        let svg = try SVGDiagramRenderer().render(trace)
        let reading = try #require(SVGReading(svg), "not well-formed:\n\(svg)")
        #expect(
            Set(reading.elements).isSubset(of: ["svg", "g", "rect", "line", "polyline", "polygon", "text", "tspan"]))
        let shown = reading.texts.map(\.content)
        for label in [
            script, "<b>API</b> & 'co'", "<img src=x onerror=alert(1)>", "a & b", "<!--x--> ]]>",
            "onFinish(</svg><svg onload=alert(1)>)", "session <1> ]]>", "&amp;",
            "alt [\" onload=\"alert(1)]", "else [<else>]", "Op\u{FFFD}",
        ] {
            #expect(shown.contains(label), "\(label) is not shown as text: \(shown)")
        }
        #expect(!svg.contains("<script") && !svg.contains("<img") && !svg.contains("onload=\""))
    }

    /// Secrets are already redacted in the trace the text renderer reads; the SVG reads the same.
    @Test func secretsStayRedacted() throws {
        let svg = try SVGDiagramRenderer().render(TraceFixtures.redactedSecrets)
        #expect(!svg.contains(TraceFixtures.secretToken.rawValue))
        #expect(!svg.contains(TraceFixtures.secretCode.rawValue))
        #expect(svg.contains("tok…a1f3"))
    }

    /// Traces recorded again (the async fixture on other threads) give the same bytes.
    @Test func identicalTracesGiveIdenticalBytes() throws {
        for (_, trace) in TraceFixtures.all {
            #expect(try SVGDiagramRenderer().render(trace()) == SVGDiagramRenderer().render(trace()))
        }
        #expect(try SVGDiagramRenderer().render(TraceFixtures.asyncCallback()).hasSuffix("</svg>\n"))
    }

    /// The picture's parts, counted: head and foot boxes, context services' boxes and Xs, their
    /// existence bars apart from activations, replies dashed with open heads, calls solid with
    /// filled ones.
    @Test func thePartsOfTheTargetAreToldApart() throws {
        let svg = try SVGDiagramRenderer().render(TraceFixtures.phoneOpTarget)
        let texts = try #require(SVGReading(svg)).texts.map(\.content)
        #expect(texts.filter { $0 == "PhoneOp" }.count == 2, "head and foot box")
        #expect(texts.filter { $0 == "PhoneViewModel" }.count == 1, "a context service has no foot box")
        // PhoneScreen and PhoneViewModel live with a bar each; PhoneOp's launch and AuthAPI's
        // call are activations.
        #expect(Self.count("fill=\"#cfdff3\"", in: svg) == 2)
        #expect(Self.count("fill=\"#fff\"/>", in: svg) == 1 + 2, "the ground and two activations")
        #expect(Self.count("stroke-width=\"2\"", in: svg) == 4, "two Xs of two strokes")
        // Four replies (three tokens and the finish), dashed with open heads; two calls (the
        // launch and requestCode) and two creations with filled heads; one async with an open head.
        #expect(Self.count("stroke-dasharray=\"6 4\"", in: svg) == 4)
        #expect(Self.count("<polygon points=", in: svg) == 4)
        #expect(Self.count("<polyline points=", in: svg) == 5)
        #expect(Self.count("<rect ", in: svg) == 1 + 6 + 2 + 4 + 1, "ground, boxes, created boxes, bars, note")
    }

    /// Labels wrap at spaces and punctuation to fit the width, in the text drawing's columns; a
    /// word longer than that allows widens the picture instead of being broken.
    @Test func labelsWrapAtSpacesAndLongWordsStayWhole() throws {
        let wrapped = try #require(SVGReading(SVGDiagramRenderer(maxWidth: 80).render(TraceFixtures.longLabel)))
        let whole = try #require(SVGReading(SVGDiagramRenderer(maxWidth: 1000).render(TraceFixtures.longLabel)))
        let word = "AuthenticationChallengeWithAnExtremelyLongTypeNameThatCannotWrap"
        #expect(wrapped.texts.count > whole.texts.count)
        #expect(wrapped.texts.map(\.content).contains(word))
        #expect(wrapped.width > 2 * 8 + 80 * 8 && wrapped.width < whole.width)
        // Where the text fits without breaking a word, the picture has its columns, 8 pixels each.
        let text = try TextDiagramRenderer(maxWidth: 100).render(TraceFixtures.phoneOpTarget)
        let columns = text.split(separator: "\n").map(\.count).max() ?? 0
        let fitting = try #require(SVGReading(SVGDiagramRenderer(maxWidth: 100).render(TraceFixtures.phoneOpTarget)))
        #expect(fitting.width == 2 * 8 + columns * 8)
    }

    @Test func anEmptyTraceIsAnEmptyPicture() throws {
        let reading = try #require(SVGReading(try SVGDiagramRenderer().render(Trace(events: []))))
        #expect(reading.texts.isEmpty)
    }

    private static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }
}
