public import Operations
import OperationsDiagrams

/// How a trace differs from the messages a test expected, with everything needed to see why.
///
/// Its ``description`` reads as a test failure: what differs first, a line diff of the message
/// lists (`-` expected, `+` actual), and the expected and actual diagrams side by side.
public struct TraceMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    /// The expected messages.
    public let expected: [TraceMessage]
    /// The messages the trace holds.
    public let actual: [TraceMessage]
    /// The comparison that failed.
    public let matching: TraceMatching
    /// A sentence naming the first difference.
    public let summary: String
    /// The message lists as a line diff: `  ` same, `- ` expected only, `+ ` actual only.
    public let diff: [String]
    /// The expected messages drawn as a text diagram (or a plain list if they cannot be drawn).
    public let expectedDiagram: String
    /// The actual trace drawn as a text diagram (or a plain list if it cannot be drawn).
    public let actualDiagram: String

    /// The full failure report.
    public var description: String {
        var text = "Trace mismatch (\(matching == .exhaustive ? "exhaustive" : "subsequence")): \(summary)\n"
        text += "\nMessages (- expected, + actual):\n"
        text += diff.map { "  " + $0 }.joined(separator: "\n") + "\n"
        text += "\n" + Self.sideBySide(expectedDiagram, actualDiagram)
        return text
    }

    /// Two drawings next to each other under `expected` and `actual` headers.
    static func sideBySide(_ left: String, _ right: String) -> String {
        let leftLines =
            ["expected", ""] + left.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let rightLines =
            ["actual", ""] + right.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let leftWidth = leftLines.map(\.displayWidth).max() ?? 0
        var rows: [String] = []
        for index in 0..<max(leftLines.count, rightLines.count) {
            let leftLine = index < leftLines.count ? leftLines[index] : ""
            let rightLine = index < rightLines.count ? rightLines[index] : ""
            let padding = String(repeating: " ", count: leftWidth - leftLine.displayWidth)
            let row = leftLine + padding + " │ " + rightLine
            rows.append(String(row.reversed().drop(while: { $0 == " " }).reversed()))
        }
        while rows.last?.allSatisfy({ $0 == " " || $0 == "│" }) == true { rows.removeLast() }
        return rows.joined(separator: "\n") + "\n"
    }
}
