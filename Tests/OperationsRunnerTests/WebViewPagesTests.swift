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
                #expect(runs.pageCount(of: entries.count) == 4)
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

    /// The runs page filters as `runs` does, from the query: the matching runs only, a hostile
    /// value echoed escaped in the form, paging keeping the filters, an unknown status refused
    /// with `runs`' own sentence.
    @Test func theRunsPageFiltersAsRunsDoesAndEchoesTheFiltersEscaped() throws {
        try withTemporaryDirectory { directory in
            let (store, _) = try Self.hostileRuns(3, in: directory)
            let other = try store.create(scenario: "Other")
            other.scenario(
                ScenarioEvent(
                    kind: .scenarioStarted, scenario: "Other", address: StepAddress(path: []), attempt: 1,
                    duration: .zero, value: 1))
            other.scenario(
                ScenarioEvent(
                    kind: .scenarioSucceeded, scenario: "Other", address: StepAddress(path: []), attempt: 1,
                    duration: .zero, value: 1))
            try other.close()
            let entries: [RunStore.SummaryEntry] = try store.summaries().reversed()
            let otherID = other.runID.description
            let hostileIDs = entries.map(\.id.description).filter { $0 != otherID }

            let failed = RunsPage(entries: entries, page: 1, pageSize: 2, status: "failed").html
            #expect(!failed.contains("href=\"/runs/\(otherID)\""), "\(failed)")
            #expect(hostileIDs.prefix(2).allSatisfy { failed.contains("href=\"/runs/\($0)\"") }, "\(failed)")
            #expect(failed.contains("<option value=\"failed\" selected>failed</option>"), "\(failed)")
            #expect(failed.contains("Page 1 of 2 (3 runs)"), "\(failed)")
            #expect(failed.contains("href=\"/?status=failed&amp;page=2\""), "paging keeps the filter: \(failed)")

            let byName = RunsPage(entries: entries, page: 1, scenario: "Other", since: "").html
            #expect(byName.contains("href=\"/runs/\(otherID)\""), "\(byName)")
            #expect(!hostileIDs.contains { byName.contains("href=\"/runs/\($0)\"") }, "\(byName)")

            let hostile = RunsPage(
                entries: entries, page: 1, pageSize: 1, scenario: Self.scenario, since: "1d\"><script>x</script>"
            ).html
            Self.expectShownAsText(hostile, "\(hostile)")
            #expect(
                hostile.contains("value=\"&lt;script&gt;alert(&#39;scenario&#39;)&lt;/script&gt;\""), "\(hostile)")
            #expect(hostile.contains("is not a duration"), "runs' own sentence for a bad --since: \(hostile)")

            let scenarioOnly = RunsPage(entries: entries, page: 1, pageSize: 1, scenario: Self.scenario).html
            #expect(
                scenarioOnly.contains(
                    "href=\"/?scenario=%3Cscript%3Ealert%28%27scenario%27%29%3C%2Fscript%3E&amp;page=2\""),
                "paging keeps the scenario, one escaped component: \(scenarioOnly)")

            let unknown = RunsPage(entries: entries, page: 1, status: "<b>bogus</b>").html
            #expect(!unknown.contains("<b>"), "\(unknown)")
            #expect(!unknown.contains("href=\"/runs/"), "no run listed under a filter that cannot be read: \(unknown)")
            #expect(unknown.contains("unknown status '&lt;b&gt;bogus&lt;/b&gt;' for --status"), "\(unknown)")
            #expect(
                unknown.contains(
                    "<option value=\"&lt;b&gt;bogus&lt;/b&gt;\" selected>&lt;b&gt;bogus&lt;/b&gt;</option>"),
                "the status typed is kept, escaped: \(unknown)")
        }
    }

    /// A run's page chooses its step among the trace's step names (escaped), draws only that
    /// step's launches as `diagram --step` does, names the run's steps for one it does not have,
    /// and links the other forms at the shown depth and step, the step one escaped component.
    @Test func theRunPageDrawsTheChosenStepAndLinksItsForms() throws {
        try withTemporaryDirectory { directory in
            let (store, entries) = try Self.hostileRuns(1, in: directory)
            let id = try #require(entries.first).id
            let history = RunHistory(try store.load(id))
            let trace = Trace(events: [
                .declare(.caller("App")), .declare(.operation("Scenario")), .declare(.operation(Self.step)),
                .declare(.operation("Other")), .declare(.keyService("API")),
                .launch("Scenario", by: "App", "launch"),
                .launch(Participant.ID(Self.step), by: "Scenario", "launch(hostile)"),
                .call(from: Participant.ID(Self.step), to: "API", "hostileCall"),
                .reply(from: "API", to: Participant.ID(Self.step), "ok"),
                .finish(Participant.ID(Self.step), to: "Scenario", "onFinish(hostile)"),
                .launch("Other", by: "Scenario", "launch(other)"),
                .call(from: "Other", to: "API", "otherCall"),
                .reply(from: "API", to: "Other", "ok"),
                .finish("Other", to: "Scenario", "onFinish(other)"),
                .finish("Scenario", to: "App", "onFinish(done)"),
            ])
            let whole = RunPage(history: history, trace: trace, depth: 3).html
            #expect(whole.contains("otherCall") && whole.contains("hostileCall"), "\(whole)")
            #expect(
                whole.contains("<option value=\"&lt;script&gt;alert(&quot;step&quot;)&lt;/script&gt;&amp;amp;\">"),
                "\(whole)")
            #expect(whole.contains("<option value=\"\" selected>The whole run</option>"), "\(whole)")
            #expect(whole.contains("<option value=\"3\" selected>3</option>"), "\(whole)")

            let chosen = RunPage(history: history, trace: trace, depth: 3, step: Self.step).html
            Self.expectShownAsText(chosen, "\(chosen)")
            #expect(chosen.contains("hostileCall") && !chosen.contains("otherCall"), "\(chosen)")
            #expect(chosen.contains("&amp;amp;\" selected>"), "\(chosen)")
            let escapedStep = "%3Cscript%3Ealert%28%22step%22%29%3C%2Fscript%3E%26amp%3B"
            for format in ["text", "plantuml", "mermaid", "svg"] {
                let href = "href=\"/runs/\(id)/diagram?format=\(format)&amp;depth=3&amp;step=\(escapedStep)\""
                #expect(chosen.contains(href), "\(format): \(chosen)")
            }
            #expect(whole.contains("href=\"/runs/\(id)/diagram?format=svg&amp;depth=3\""), "\(whole)")

            let missing = RunPage(history: history, trace: trace, step: "<i>Nope</i>").html
            Self.expectShownAsText(missing, "\(missing)")
            #expect(!missing.contains("<i>"), "\(missing)")
            #expect(missing.contains("the run has no step '&lt;i&gt;Nope&lt;/i&gt;' (its steps: "), "\(missing)")
        }
    }

    /// A running run's page reloads itself (a meta refresh: no script, which the page's content
    /// security policy would refuse); a finished run's page does not.
    @Test func onlyARunningRunsPageRefreshes() throws {
        try withTemporaryDirectory { directory in
            let refresh = "<meta http-equiv=\"refresh\" content=\"2\">"
            let (store, entries) = try Self.hostileRuns(1, in: directory)
            let finished = RunPage(history: RunHistory(try store.load(try #require(entries.first).id))).html
            #expect(!finished.contains(refresh), "\(finished)")
            #expect(!finished.lowercased().contains("<script"), "\(finished)")

            let live = try store.create(scenario: "Live")
            live.scenario(
                ScenarioEvent(
                    kind: .scenarioStarted, scenario: "Live", address: StepAddress(path: []), attempt: 1,
                    duration: .zero, value: 1))
            live.scenario(
                ScenarioEvent(
                    kind: .stepLaunched, scenario: "Live", address: StepAddress((0, "Waiting")), attempt: 1,
                    duration: .zero, value: 1))
            let history = RunHistory(try store.load(live.runID))
            #expect(history.status == .running)
            let running = RunPage(history: history).html
            #expect(running.contains(refresh), "\(running)")
            #expect(!running.lowercased().contains("<script"), "\(running)")
            try live.close()
        }
    }
}
