import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

@testable import OperationsRunner

/// Issue 39, part 3: the web view's pages show every value of a journal or trace as text,
/// whatever markup, script, quotes or control characters it holds; the runs page pages; the
/// same runs give the same bytes.
struct WebViewPagesTests {
    static let scenario = "<script>alert('scenario')</script>"
    static let step = "<script>alert(\"step\")</script>&amp;"
    static let control = "Bell\u{7}Escape\u{1B}[31mNull\u{0}Delete\u{7F}"

    /// An error whose words are markup, as a service's reply might be.
    struct HostileError: Error, CustomStringConvertible {
        var description: String { "<img src=x onerror=alert(1)> & \"quoted\" 'single'" }
    }

    /// `count` runs of the hostile scenario, each failing at the hostile step after a step named
    /// with control characters; newest first, as the runs page takes them.
    static func hostileRuns(_ count: Int, in directory: URL) throws -> (RunStore, [RunStore.SummaryEntry]) {
        let store = RunStore(stateDirectory: directory)
        for _ in 0..<count {
            let journal = try store.create(scenario: scenario)
            func event(_ kind: ScenarioEvent.Kind, _ address: StepAddress, attempt: Int = 1) {
                journal.scenario(
                    ScenarioEvent(
                        kind: kind, scenario: scenario, address: address, attempt: attempt, duration: .milliseconds(3),
                        value: 1))
            }
            let root = StepAddress(path: [])
            event(.scenarioStarted, root)
            event(.stepLaunched, StepAddress((0, control)))
            event(.stepSucceeded, StepAddress((0, control)))
            event(.stepLaunched, StepAddress((1, step)))
            event(.stepFailed(HostileError(), willRetry: true, delay: nil), StepAddress((1, step)))
            event(.stepLaunched, StepAddress((1, step)), attempt: 2)
            event(.stepFailed(HostileError(), willRetry: false, delay: nil), StepAddress((1, step)), attempt: 2)
            event(.scenarioFailed(HostileError()), root)
            try journal.close()
        }
        return (store, try store.summaries().reversed())
    }

    /// A trace whose participants and labels hold markup.
    static let hostileTrace = Trace(events: [
        .declare(.caller("App")), .declare(.operation(step)),
        .launch(Participant.ID(step), by: "App", "launch(<b>\"x\"</b>)"),
        .finish(Participant.ID(step), to: "App", "onFinish(\(HostileError()))"),
    ])

    /// What a page that shows hostile values as text holds: no element the values name, no raw
    /// control character, and the values themselves escaped.
    static func expectShownAsText(_ html: String, _ comment: Comment) {
        let lowered = html.lowercased()
        #expect(!lowered.contains("<script"), comment)
        #expect(!lowered.contains("<img"), comment)
        #expect(!lowered.contains("<b>"), comment)
        #expect(
            !html.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F },
            comment)
        #expect(html.contains("&lt;script&gt;"), comment)
    }

    @Test func hostileValuesShowAsTextOnTheRunsPage() throws {
        try withTemporaryDirectory { directory in
            let (_, entries) = try Self.hostileRuns(1, in: directory)
            let html = RunsPage(entries: entries, page: 1).html
            Self.expectShownAsText(html, "\(html)")
            #expect(html.contains("<td>&lt;script&gt;alert('scenario')&lt;/script&gt;</td>"), "\(html)")
            #expect(html.contains("<td>&lt;script&gt;alert(\"step\")&lt;/script&gt;&amp;amp;</td>"), "\(html)")
        }
    }

    @Test func hostileValuesShowAsTextOnTheRunPage() throws {
        try withTemporaryDirectory { directory in
            let (store, entries) = try Self.hostileRuns(1, in: directory)
            let history = RunHistory(try store.load(try #require(entries.first).id))
            let html = RunPage(
                history: history, reruns: nil, hint: "Go on: rerun \(Self.step)", trace: Self.hostileTrace
            ).html
            Self.expectShownAsText(html, "\(html)")
            #expect(html.contains("<svg"), "the diagram is drawn inline: \(html)")
            #expect(html.contains("&lt;img src=x onerror=alert(1)&gt; &amp; \"quoted\""), "\(html)")
            #expect(html.contains("Bell\u{2407}Escape\u{241B}[31mNull\u{2400}Delete\u{2421}"), "\(html)")
            #expect(html.contains("<p class=\"hint\">Go on: rerun &lt;script&gt;"), "\(html)")
        }
    }

    /// Every context's escape: an attribute cannot be ended by either quote; a URL component
    /// cannot end its path segment, query or the attribute it stands in.
    @Test func eachContextEscapesWhatCouldEndIt() {
        #expect(HTMLEscaping.attribute("a\"b'c<d>&") == "a&quot;b&#39;c&lt;d&gt;&amp;")
        #expect(HTMLEscaping.text("a\"b'c") == "a\"b'c")
        #expect(HTMLEscaping.urlComponent("a b/c?d&e=f#g\"h'é~._-") == "a%20b%2Fc%3Fd%26e%3Df%23g%22h%27%C3%A9~._-")
        #expect(HTMLEscaping.text("\u{85}\u{9B}") == "\u{FFFD}\u{FFFD}")
    }

    /// Seven runs two a page: four pages, newest first, each run on exactly one page, with
    /// links to the pages on either side; a page past the end shows the last.
    @Test func theRunsPagePagesNewestFirst() throws {
        try withTemporaryDirectory { directory in
            let (_, entries) = try Self.hostileRuns(7, in: directory)
            let ids = entries.map(\.id.description)
            var seen: [String] = []
            for page in 1...4 {
                let runs = RunsPage(entries: entries, page: page, pageSize: 2)
                #expect(runs.pageCount == 4)
                let html = runs.html
                let linked = ids.filter { html.contains("href=\"/runs/\($0)\"") }
                #expect(linked == Array(ids.dropFirst((page - 1) * 2).prefix(2)), "page \(page): \(html)")
                seen += linked
                #expect(html.contains("Page \(page) of 4 (7 runs)"), "\(html)")
                #expect(html.contains("href=\"/?page=\(page - 1)\"") == (page > 1), "\(html)")
                #expect(html.contains("href=\"/?page=\(page + 1)\"") == (page < 4), "\(html)")
            }
            #expect(seen == ids)
            #expect(
                RunsPage(entries: entries, page: 99, pageSize: 2).html
                    == RunsPage(entries: entries, page: 4, pageSize: 2).html)
            #expect(
                RunsPage(entries: entries, page: -1, pageSize: 2).html
                    == RunsPage(entries: entries, page: 1, pageSize: 2).html)
            #expect(RunsPage(entries: [], page: 1).html.contains("No runs yet."))
        }
    }

    /// The same journal read twice gives the same pages, byte for byte.
    @Test func pagesAreDeterministic() throws {
        try withTemporaryDirectory { directory in
            let (store, entries) = try Self.hostileRuns(3, in: directory)
            let id = try #require(entries.first).id
            func runPage() throws -> String {
                RunPage(history: RunHistory(try store.load(id)), trace: Self.hostileTrace, depth: 1).html
            }
            #expect(try runPage() == runPage())
            let again = try store.summaries().reversed() as [RunStore.SummaryEntry]
            #expect(RunsPage(entries: entries, page: 1).html == RunsPage(entries: again, page: 1).html)
        }
    }
}
