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
    /// The step whose launches are drawn, as `diagram --step`; the whole run when `nil`.
    var step: String?

    /// The page as an HTML document; the same run gives the same bytes. A running run's page
    /// reloads itself every two seconds (a refresh, no script), so it follows the run.
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
        body += "<h2>Diagram</h2>\n" + controls(id) + diagram + formLinks(id)
        return HTMLPage.document(
            title: "Run \(id)", body: body, refreshSeconds: history.status == .running ? 2 : nil)
    }

    /// The SVG drawing of the shown depth and step, inline; or why there is none, as text.
    private var diagram: String {
        guard let trace else { return "<p>This run recorded no trace to draw.</p>\n" }
        do {
            let shown = try RunTrace.shown(trace, depth: depth, step: step, command: "diagram")
            return "<div class=\"diagram\">\n" + (try SVGDiagramRenderer().render(shown)) + "</div>\n"
        } catch let error as UsageError {
            return "<p class=\"failed\">\(HTMLEscaping.text(error.message))</p>\n"
        } catch {
            return "<p>The diagram cannot be drawn: \(HTMLEscaping.text("\(error)"))</p>\n"
        }
    }

    /// A GET form to this page choosing the step (the trace's step names, or the whole run)
    /// and the depth, the shown ones selected.
    private func controls(_ id: String) -> String {
        func option(_ value: String, _ text: String, selected: Bool) -> String {
            "<option value=\"\(HTMLEscaping.attribute(value))\"\(selected ? " selected" : "")>\(HTMLEscaping.text(text))</option>"
        }
        let steps =
            [option("", "The whole run", selected: step == nil)]
            + (trace?.stepNames ?? []).map { option($0, $0, selected: $0 == step) }
        let depths = (1...max(4, depth)).map { option("\($0)", "\($0)", selected: $0 == depth) }
        return """
            <form method="get" action="\(HTMLEscaping.attribute(Self.path(of: id)))" class="controls">\
            <label>Step <select name="step">\(steps.joined())</select></label> \
            <label>Depth <select name="depth">\(depths.joined())</select></label> \
            <button type="submit">Draw</button></form>

            """
    }

    /// Links to the diagram as `diagram --run --format` prints it, at the shown depth and step.
    private func formLinks(_ id: String) -> String {
        let stepQuery = step.map { "&step=\(HTMLEscaping.urlComponent($0))" } ?? ""
        let links = [("text", "Text"), ("plantuml", "PlantUML"), ("mermaid", "Mermaid"), ("svg", "SVG")].map {
            format, name in
            HTMLPage.link("\(Self.path(of: id))/diagram?format=\(format)&depth=\(depth)\(stepQuery)", name)
        }
        return "<nav>Also as: \(links.joined(separator: " "))</nav>\n"
    }

    /// The path of run `id`'s page, the id one escaped component.
    static func path(of id: String) -> String {
        "/runs/\(HTMLEscaping.urlComponent(id))"
    }
}
