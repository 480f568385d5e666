import Foundation
import Operations
import OperationsDiagrams
import OperationsJournal

/// The web view's page of one run: what `show` prints of it, read from the same history
/// (``HistoryText``), so the page and the terminal say the same of every step and redact the
/// same values, then its message diagram drawn as SVG, with links to its other forms.
struct RunPage {
    /// The run's one history, as `show` reads it.
    let history: RunHistory
    /// The runs made from this one (``RunLinks``' text), as `show` says it.
    var reruns: String?
    /// The way on (``RunHint/line``), as `show` ends with it.
    var hint: String?
    /// The run's trace, prepared for drawing as `diagram --run` prepares it; `nil` when the run
    /// recorded none.
    var trace: Trace?
    /// Levels of launches drawn with their insides, as `diagram --depth`.
    var depth = 2

    /// The page as an HTML document; the same run gives the same bytes.
    var html: String {
        let text = HistoryText(history: history)
        let id = history.runID.description
        var body = "<nav>\(HTMLPage.link("/", "All runs"))</nav>\n"
        body += "<h1 class=\"\(HTMLEscaping.attribute(history.status.rawValue))\">"
        body += HTMLEscaping.text(text.headline) + "</h1>\n"
        body += text.overview(reruns: reruns).map { "<p>\(HTMLEscaping.text($0))</p>\n" }.joined()
        body += "<h2>Steps</h2>\n<ol class=\"steps\">\n"
        for line in text.lines.map(\.text) + text.eventLines {
            body += "<li>\(HTMLEscaping.text(line))</li>\n"
        }
        body += "</ol>\n"
        if let hint { body += "<p class=\"hint\">\(HTMLEscaping.text(hint))</p>\n" }
        body += "<h2>Diagram</h2>\n" + depthLinks(id) + diagram + formLinks(id)
        return HTMLPage.document(title: "Run \(id)", body: body)
    }

    /// The SVG drawing, inline; or why there is none, as text.
    private var diagram: String {
        guard let trace else { return "<p>This run recorded no trace to draw.</p>\n" }
        do {
            return "<div class=\"diagram\">\n" + (try SVGDiagramRenderer().render(trace.limited(toDepth: depth)))
                + "</div>\n"
        } catch {
            return "<p>The diagram cannot be drawn: \(HTMLEscaping.text("\(error)"))</p>\n"
        }
    }

    /// `Depth: 1 2 3 4`, the shown depth unlinked.
    private func depthLinks(_ id: String) -> String {
        let links = (1...4).map { level in
            level == depth
                ? "<strong>\(level)</strong>" : HTMLPage.link("\(Self.path(of: id))?depth=\(level)", "\(level)")
        }
        return "<nav>Depth: \(links.joined(separator: " "))</nav>\n"
    }

    /// Links to the diagram as `diagram --run --format` prints it, at the shown depth.
    private func formLinks(_ id: String) -> String {
        let links = [("text", "Text"), ("plantuml", "PlantUML"), ("mermaid", "Mermaid")].map { format, name in
            HTMLPage.link("\(Self.path(of: id))/diagram?format=\(format)&depth=\(depth)", name)
        }
        return "<nav>Also as: \(links.joined(separator: " "))</nav>\n"
    }

    /// The path of run `id`'s page, the id one escaped component.
    static func path(of id: String) -> String {
        "/runs/\(HTMLEscaping.urlComponent(id))"
    }
}
