import Foundation
import Operations
import OperationsJournal

/// The web view's runs page: the runs of the state directory as `runs` lists them (the run
/// store's summary index, ``RunStore/SummaryEntry``), newest first, one page of them at a time,
/// each row linking to its run's page (``RunPage``).
struct RunsPage {
    /// Every run, newest first.
    let entries: [RunStore.SummaryEntry]
    /// The page asked for, from 1; one past the end shows the last page.
    let page: Int
    /// Where each live run shown is, from its history, as `runs` reads it.
    var current: [RunID: RunHistory.Current] = [:]
    /// How many runs a page shows.
    var pageSize = 50

    /// How many pages the runs take; an empty state directory has one, empty page.
    var pageCount: Int { max(1, (entries.count + pageSize - 1) / pageSize) }

    /// The page shown: ``page`` held between 1 and ``pageCount``.
    var shownPage: Int { min(max(page, 1), pageCount) }

    /// The runs on the shown page, newest first.
    var shown: ArraySlice<RunStore.SummaryEntry> {
        let start = (shownPage - 1) * pageSize
        return entries[start..<min(start + pageSize, entries.count)]
    }

    /// The page as an HTML document; the same runs give the same bytes.
    var html: String {
        var body = "<h1>Runs</h1>\n"
        guard !entries.isEmpty else {
            return HTMLPage.document(title: "Runs", body: body + "<p>No runs yet.</p>\n")
        }
        body += "<table>\n<tr><th>Run</th><th>Scenario</th><th>Status</th><th>Step</th><th>Started</th></tr>\n"
        for entry in shown { body += row(entry) }
        body += "</table>\n" + navigation
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

    /// `Page 2 of 7`, with links to the newer and older pages where there are some.
    private var navigation: String {
        var links: [String] = []
        if shownPage > 1 { links.append(HTMLPage.link("/?page=\(shownPage - 1)", "Newer")) }
        links.append(HTMLEscaping.text("Page \(shownPage) of \(pageCount) (\(CountText.runs(entries.count)))"))
        if shownPage < pageCount { links.append(HTMLPage.link("/?page=\(shownPage + 1)", "Older")) }
        return "<nav>\(links.joined(separator: " "))</nav>\n"
    }
}
