import Foundation
import LoopbackHTTP
import Operations
import OperationsDiagrams
import OperationsJournal

/// What `PROGRAM ui` serves, every route in one place, each reading the run store with the
/// functions `runs`, `show` and `diagram` read it with, so the page and the terminal say the same:
///
/// - `/` and `/?page=N`: the runs, newest first (``RunsPage``).
/// - `/runs/RUN_ID?depth=N`: a run's page (``RunPage``).
/// - `/runs/RUN_ID/diagram?format=text|ascii|plantuml|mermaid|svg&depth=N&step=NAME`: what
///   `diagram --run RUN_ID` prints with those options (``DrawRun/drawing(_:in:depth:step:options:)``).
///
/// A request whose `Host` is not this server's loopback address and port is refused before any
/// run is read: a page of another site that a rebinding DNS name points at 127.0.0.1 reads
/// nothing. Every answer, error pages included, is a page or text with the headers of
/// ``answer(_:type:_:)``; no request can stop the server.
struct WebRoutes<Program: RunnerProgram>: Sendable {
    /// The run store read.
    let store: RunStore
    /// The port served, the only one a `Host` may name.
    let port: UInt16
    /// The `--state-dir` given to `ui`, repeated in the commands a run's hint suggests.
    let stateDirectoryOption: String?

    /// The longest request target served; a longer one is `414`.
    static var longestTarget: Int { 2048 }

    /// The answer to `request`; never throws, whatever the request or the run store holds.
    func response(to request: HTTPServer.Request) -> HTTPServer.Response {
        let host = request.headers["host"]?.lowercased()
        guard let host, host == "127.0.0.1:\(port)" || host == "localhost:\(port)" else {
            return Self.page(
                403, "Forbidden",
                "This server answers only requests addressed to 127.0.0.1:\(port) or localhost:\(port).")
        }
        guard request.target.utf8.count <= Self.longestTarget else {
            return Self.page(414, "Address too long", "An address may have at most \(Self.longestTarget) characters.")
        }
        do throws(Failure) {
            let (path, query) = try Self.split(request.target)
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
            switch (parts.first ?? "", parts.count) {
            case ("", 1): return try runs(query)
            case ("runs", 2): return try run(Self.decoded(parts[1]), query)
            case ("runs", 3) where parts[2] == "diagram": return try diagram(Self.decoded(parts[1]), query)
            default: throw Failure(404, "Not found", "There is no page at this address.")
            }
        } catch {
            return Self.page(error.status, error.title, error.sentence)
        }
    }

    /// How the server words the requests it refuses itself (malformed, too large, too slow): an
    /// error page like the routes' own.
    static func refusal(_ status: Int, _ code: String, _ message: String) -> HTTPServer.Response {
        page(status, HTTPServer.reasonPhrase(status), message)
    }

    // MARK: - Routes

    private func runs(_ query: [String: String]) throws(Failure) -> HTTPServer.Response {
        let number = try Self.number(query["page"], name: "page", default: 1, in: 1...Int.max)
        let entries: [RunStore.SummaryEntry]
        do {
            entries = try Array(store.summaries().reversed())
        } catch {
            throw Failure(500, "Runs cannot be listed", "The runs cannot be listed: \(error)")
        }
        var page = RunsPage(entries: entries, page: number)
        (page.status, page.scenario, page.since) = (query["status"], query["scenario"], query["since"])
        page.current = ListRuns<Program>.current(of: page.shown, in: store)
        return Self.answer(200, type: "text/html; charset=utf-8", page.html)
    }

    private func run(_ id: String, _ query: [String: String]) throws(Failure) -> HTTPServer.Response {
        let depth = try Self.number(query["depth"], name: "depth", default: 2, in: 1...10_000)
        let (runID, record) = try Self.reading {
            let runID = try RunLookup.id(id, program: Program.configuration.name)
            return (runID, try RunLookup.record(runID, in: store, program: Program.configuration.name))
        }
        // As `show` reads it: one history, the runs made from it, the way on.
        let history = RunHistory(record)
        var page = RunPage(history: history)
        page.reruns = RunLinks(madeFrom: runID, in: store).text(of: runID)
        page.hint = Program.configuration.hint(for: record, stateDirectoryOption: stateDirectoryOption)?.line
        page.depth = depth
        page.step = query["step"].flatMap { $0.isEmpty ? nil : $0 }
        let recorded = try Self.reading { () throws -> RecordedTrace? in
            do {
                return try RunTrace.loadRecorded(for: store.url(for: runID), runID: runID) { throw NoTrace() }
            } catch is NoTrace {
                return nil
            }
        }
        page.trace = recorded.map { RunTrace.drawable($0, history: history) }
        return Self.answer(200, type: "text/html; charset=utf-8", page.html)
    }

    private func diagram(_ id: String, _ query: [String: String]) throws(Failure) -> HTTPServer.Response {
        let depth = try Self.number(query["depth"], name: "depth", default: 2, in: 1...10_000)
        let formatName = query["format"] ?? "text"
        guard let format = formatName == "text" ? .unicode : DiagramFormat(rawValue: formatName) else {
            throw Failure(
                400, "Bad request",
                "The format '\(ParsedArguments.clip(formatName))' is not one of text, ascii, plantuml, mermaid and svg."
            )
        }
        let step = query["step"]
        let drawing = try Self.reading {
            let runID = try RunLookup.id(id, program: Program.configuration.name)
            // Width 100, as `diagram` draws when its output is not a terminal.
            return try DrawRun<Program>.drawing(
                runID, in: store, depth: depth, step: step, options: DiagramOptions(format: format, width: 100))
        }
        return Self.answer(
            200, type: format == .svg ? "image/svg+xml; charset=utf-8" : "text/plain; charset=utf-8", drawing)
    }

    // MARK: - Answers

    /// An answer with the headers every answer carries: its type with its charset, a content
    /// security policy that lets no script run and nothing load from elsewhere (the pages' style
    /// is inline, their diagrams inline SVG), no sniffing of another type, no referrer sent
    /// from a link, and no copy kept (a run's page changes as it runs). The server adds
    /// `Content-Length`, `Date` and `Connection: close`.
    static func answer(_ status: Int, type: String, _ body: String) -> HTTPServer.Response {
        HTTPServer.Response(
            status: status,
            headers: [
                "Content-Type": type,
                "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:",
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
                "Cache-Control": "no-store",
            ],
            body: Data(body.utf8))
    }

    /// An error page: `title`, the sentence saying what went wrong (escaped), a link to the runs.
    static func page(_ status: Int, _ title: String, _ sentence: String) -> HTTPServer.Response {
        let body =
            "<h1>\(HTMLEscaping.text(title))</h1>\n<p>\(HTMLEscaping.text(sentence))</p>\n"
            + "<nav>\(HTMLPage.link("/", "All runs"))</nav>\n"
        return answer(status, type: "text/html; charset=utf-8", HTMLPage.document(title: title, body: body))
    }

    // MARK: - Reading requests

    /// Why a request gets an error page.
    private struct Failure: Error {
        let status: Int
        let title: String
        let sentence: String

        init(_ status: Int, _ title: String, _ sentence: String) {
            (self.status, self.title, self.sentence) = (status, title, sentence)
        }
    }

    /// A run without a trace file: its page says so instead of failing.
    private struct NoTrace: Error {}

    /// What `read` returns; the runner's errors as pages in the sentences the terminal gives:
    /// no such run or step `404`, a journal or trace that cannot be read `422`.
    private static func reading<Value>(_ read: () throws -> Value) throws(Failure) -> Value {
        do {
            return try read()
        } catch let error as UsageError {
            throw Failure(404, "Not found", sentence(error.message))
        } catch {
            throw Failure(422, "Cannot be read", sentence("\(error)"))
        }
    }

    /// A runner message as a sentence: capitalised, with a full stop.
    private static func sentence(_ message: String) -> String {
        let text = message.prefix(1).uppercased() + message.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }

    /// The target's path and query values, percent-decoded (`+` a space, as forms send it); a
    /// name given twice keeps its last value.
    private static func split(_ target: String) throws(Failure) -> (String, [String: String]) {
        let (path, query) =
            target.firstIndex(of: "?").map { (target[..<$0], target[target.index(after: $0)...]) }
            ?? (target[...], "")
        var values: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let (name, value) =
                pair.firstIndex(of: "=").map { (pair[..<$0], pair[pair.index(after: $0)...]) }
                ?? (pair, "")
            values[try decoded(name)] = try decoded(value)
        }
        return (String(path), values)
    }

    private static func decoded(_ text: some StringProtocol) throws(Failure) -> String {
        guard let decoded = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
            throw Failure(400, "Bad request", "The address holds a '%' that is not followed by two hex digits.")
        }
        return decoded
    }

    /// A whole number query value within `range`, `default` when it is not given.
    private static func number(_ text: String?, name: String, default value: Int, in range: ClosedRange<Int>)
        throws(Failure) -> Int
    {
        guard let text else { return value }
        guard let number = Int(text), range.contains(number) else {
            let bounds =
                range.upperBound == Int.max
                ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw Failure(
                400, "Bad request", "The \(name) '\(ParsedArguments.clip(text))' is not a whole number \(bounds).")
        }
        return number
    }
}
