import Operations
import OperationsDiagrams
import Testing

/// The hand-drawn PhoneOp target of DIAGRAMS.md, rebuilt as a trace, checked on its key
/// properties (the golden files hold the whole drawing).
struct PhoneOpTargetTests {
    let lines: [Substring]

    init() throws {
        let text = try TextDiagramRenderer().render(TraceFixtures.phoneOpTarget)
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }

    @Test func fitsTheWidthOfThePicture() {
        let widest = lines.map(\.displayWidth).max() ?? 0
        #expect(widest <= 100)
        #expect(widest >= 95, "the picture is 98 columns wide; the layout should be as roomy")
        #expect(lines.allSatisfy { $0.last != " " })
    }

    @Test func launchComesFirstFromTheLeftEdgeAndOnFinishLast() {
        #expect(lines[3].hasPrefix(" launch(phone)"))
        #expect(lines[4].hasPrefix("────") && lines[4].contains(">│ │"))
        let finishLabel = lines.lastIndex { $0.hasPrefix(" onFinish(token)") }
        #expect(finishLabel.map { lines[$0 + 1].hasPrefix("<─ ─") } == true)
        #expect(finishLabel.map { lines[$0 + 2].contains("└┬┘") } == true)
    }

    @Test func contextServicesEndWithAnXRightUnderTheirBar() throws {
        let barEnds = lines.indices.filter { lines[$0].contains("└┬┘") }
        let crosses = lines.indices.filter { lines[$0].contains("╳") }
        #expect(crosses.count == 2)
        for cross in crosses {
            let column = try #require(lines[cross].firstIndex(of: "╳"))
            let offset = lines[cross].distance(from: lines[cross].startIndex, to: column)
            #expect(barEnds.contains(cross - 1))
            let above = Array(lines[cross - 1])
            #expect(above[offset] == "┬", "the X stands under the bar's end")
            // Nothing below the X.
            #expect(
                lines[(cross + 1)...].allSatisfy { line in
                    let characters = Array(line)
                    return characters.count <= offset || characters[offset] == " " || characters[offset] == "─"
                        || characters[offset] == "<" || characters[offset] == "┴"
                })
        }
    }

    @Test func headBoxesOfContextServicesSitOnTheirCreationRow() {
        let screenRow = lines.firstIndex { $0.contains("│PhoneScreen│") }
        #expect(screenRow.map { lines[$0].contains("───────>│PhoneScreen│") } == true)
        #expect(!lines[0].contains("PhoneScreen"))
    }

    @Test func replyIsCoveredByTheActivationBar() throws {
        let reply = try #require(lines.firstIndex { $0.contains("<─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─│ │") })
        #expect(lines[reply - 2].contains("┌┴┐") == false)
        #expect(lines[reply + 1].contains("└┬┘"), "the bar closes right after the reply it covers")
    }
}
