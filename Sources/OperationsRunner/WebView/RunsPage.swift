import Foundation
import Operations
import OperationsJournal

/// The web view's runs page: the runs of the state directory as `runs` lists them (the run
/// store's summary index, ``RunStore/SummaryEntry``), newest first, filtered as `runs` filters
/// them (``RunFilter``, from the query's `status`, `scenario` and `since`, which a small GET form
/// on the page sets), one page of them at a time, each row linking to its run's page
/// (``RunPage``).
struct RunsPage {
    /// Every run, newest first.
    let entries: [RunStore.SummaryEntry]
    /// The page asked for, from 1; one past the end shows the last page.
    let page: Int
    /// Where each live run shown is, from its history, as `runs` reads it.
    var current: [RunID: RunHistory.Current] = [:]
    /// How many runs a page shows.
    var pageSize = 50
    /// The query's `status` as typed: one status, or several separated by commas, as `--status`;
    /// empty filters nothing.
    var status: String?
    /// The query's `scenario`; an empty field (a form sent as is) filters nothing.
    var scenario: String?
    /// The query's `since`, a duration ago or a date, as `--since`; empty filters nothing.
    var since: String?
    /// The moment a `since` duration counts back from.
    var now = Date()

    /// The filter the query names, or why it names none (an unknown status, a `since` that is
    /// neither a duration nor a date): ``RunFilter``'s own reading, so the page and `runs`
    /// accept and refuse the same values.
    var filter: Result<RunFilter, UsageError> {
        Result {
            try RunFilter(
                statuses: Self.given(status).map { [$0] } ?? [], scenario: Self.given(scenario),
                since: Self.given(since), command: "runs", now: now)
        }
        .mapError { $0 as? UsageError ?? UsageError("\($0)") }
    }

    /// A query value, `nil` when absent or empty (a form's field left empty).
    private static func given(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The runs the filter keeps, newest first: every run when the query filters nothing, none
    /// when it cannot be read.
    var matching: [RunStore.SummaryEntry] {
        switch filter {
        case .success(let filter): filter.isActive ? entries.filter(filter.matches) : entries
        case .failure: []
        }
    }

    /// How many pages `count` runs take; no runs take one, empty page.
    func pageCount(of count: Int) -> Int { max(1, (count + pageSize - 1) / pageSize) }

    /// The page shown of `count` runs: ``page`` held between 1 and the last page.
    func shownPage(of count: Int) -> Int { min(max(page, 1), pageCount(of: count)) }

    /// The matching runs on the shown page, newest first.
    var shown: ArraySlice<RunStore.SummaryEntry> {
        let matching = matching
        let start = (shownPage(of: matching.count) - 1) * pageSize
        return matching[start..<min(start + pageSize, matching.count)]
    }

    /// The page as an HTML document; the same runs and query give the same bytes.
    var html: String {
        var body = "<h1>Runs</h1>\n" + form
        if case .failure(let error) = filter {
            body += "<p class=\"failed\">\(HTMLEscaping.text(error.message))</p>\n"
            return HTMLPage.document(title: "Runs", body: body)
        }
        guard !entries.isEmpty else {
            return HTMLPage.document(title: "Runs", body: body + "<p>No runs yet.</p>\n")
        }
        let matching = matching
        guard !matching.isEmpty else {
            body += "<p>No runs match (\(HTMLEscaping.text(CountText.runs(entries.count))) in all).</p>\n"
            return HTMLPage.document(title: "Runs", body: body)
        }
        body += "<table>\n<tr><th>Run</th><th>Scenario</th><th>Status</th><th>Step</th><th>Started</th></tr>\n"
        for entry in shown { body += row(entry) }
        body += "</table>\n" + navigation(shownPage(of: matching.count), of: matching.count)
        return HTMLPage.document(title: "Runs", body: body)
    }

    /// A run's row, its step as `runs` lists it (``HistoryText/listedStep(_:current:)``).
    private func row(_ entry: RunStore.SummaryEntry) -> String {
        let link = HTMLPage.link(RunPage.path(of: entry.id.description), entry.id.description)
        let cells: [String]
        switch entry.summary {
        case .success(let summary):
            cells = [
                summary.scenario, summary.status.rawValue, HistoryText.listedStep(summary, current: current[entry.id]),
                RunTimestamp.text(summary.startedAt ?? summary.createdAt),
            ]
        case .failure:
            cells = ["?", ListedStatus.damaged.rawValue, "-", "-"]
        }
        let status = HTMLEscaping.attribute(cells[1])
        return "<tr class=\"\(status)\"><td>\(link)</td>"
            + cells.map { "<td>\(HTMLEscaping.text($0))</td>" }.joined() + "</tr>\n"
    }

    /// The filters as a GET form to this page, showing the query's values: the status (any, one
    /// of them, or the several typed in the address), the scenario and the start.
    private var form: String {
        func option(_ value: String, _ text: String) -> String {
            let selected = value == (Self.given(status) ?? "") ? " selected" : ""
            return "<option value=\"\(HTMLEscaping.attribute(value))\"\(selected)>\(HTMLEscaping.text(text))</option>"
        }
        let typed = Self.given(status).flatMap { ListedStatus(rawValue: $0) == nil ? $0 : nil }
        let statuses =
            [option("", "any")] + ListedStatus.allCases.map { option($0.rawValue, $0.rawValue) }
            + (typed.map { [option($0, $0)] } ?? [])
        return """
            <form method="get" action="/" class="filters">\
            <label>Status <select name="status">\(statuses.joined())</select></label>
            <label>Scenario <input name="scenario" value="\(HTMLEscaping.attribute(scenario ?? ""))"></label>
            <label>Since <input name="since" value="\(HTMLEscaping.attribute(since ?? ""))" placeholder="2h, 7d, 2025-01-31"></label>
            <button type="submit">Filter</button> \(HTMLPage.link("/", "Clear"))</form>

            """
    }

    /// The query of this page's filters, for a link that keeps them: `status=…&scenario=…&`,
    /// each value one escaped component; empty when the query filters nothing.
    private var filterQuery: String {
        [("status", status), ("scenario", scenario), ("since", since)].compactMap { name, value in
            Self.given(value).map { "\(name)=\(HTMLEscaping.urlComponent($0))&" }
        }
        .joined()
    }

    /// `Page 2 of 7`, with links to the newer and older pages where there are some, keeping the
    /// filters.
    private func navigation(_ shownPage: Int, of count: Int) -> String {
        let pageCount = pageCount(of: count)
        var links: [String] = []
        if shownPage > 1 { links.append(HTMLPage.link("/?\(filterQuery)page=\(shownPage - 1)", "Newer")) }
        links.append(HTMLEscaping.text("Page \(shownPage) of \(pageCount) (\(CountText.runs(count)))"))
        if shownPage < pageCount { links.append(HTMLPage.link("/?\(filterQuery)page=\(shownPage + 1)", "Older")) }
        return "<nav>\(links.joined(separator: " "))</nav>\n"
    }
}
