import Foundation

/// Prints bench results: a table for people, a JSON array for tools.
enum BenchReport {
    static let unavailableNote = "not available in this build"
    static let skippedNote = "skipped in quick mode"

    /// The table: case, ns/op with its spread over the rounds, reference, ratio with its spread,
    /// target, met?.
    ///
    /// A spread is half the range of the rounds relative to their median (`±4%`): how far one
    /// round may stray, so a reader sees at once which figures the machine disturbed.
    static func table(_ results: [BenchResult]) -> String {
        let header = ["case", "ns/op", "±", "reference", "ratio", "±", "target", "met?"]
        let rows = results.map { result -> [String] in
            let targets = result.benchCase.targets.map(\.label).joined(separator: ", ")
            switch result.figure {
            case .unavailable:
                return [
                    result.benchCase.id, unavailableNote, "", result.benchCase.reference ?? "—", "", "", targets, "",
                ]
            case .skipped:
                return [result.benchCase.id, skippedNote, "", result.benchCase.reference ?? "—", "", "", targets, ""]
            case .nanosecondsPerOperation(let nanoseconds):
                return [
                    result.benchCase.id, BenchFormat.fixed(nanoseconds, decimals: 1),
                    spreadText(result.spread, median: nanoseconds),
                    result.benchCase.reference ?? "—", result.ratio.map { BenchFormat.ratio($0) + "×" } ?? "",
                    result.ratio.map { spreadText(result.ratioSpread, median: $0) } ?? "",
                    targets, verdict(result.isMet),
                ]
            case .bytes(let bytes):
                return [
                    result.benchCase.id, "\(BenchFormat.bytes(bytes)) RSS", "", "—", "", "", targets,
                    verdict(result.isMet),
                ]
            }
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        let numeric: Set<Int> = [1, 2, 4, 5]
        func line(_ cells: [String]) -> String {
            let padded = cells.indices.map { column -> String in
                let padding = String(repeating: " ", count: widths[column] - cells[column].count)
                // A note in the ns/op column reads left-aligned; numbers align right.
                let rightAligned =
                    numeric.contains(column) && cells[column] != unavailableNote
                    && cells[column] != skippedNote
                return rightAligned ? padding + cells[column] : cells[column] + padding
            }
            return String(padded.joined(separator: "  ").reversed().drop { $0 == " " }.reversed())
        }
        let rule = widths.map { String(repeating: "-", count: $0) }
        return ([line(header), line(rule)] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// The JSON array: one object per case, `{"case", "nsPerOp", "reference", "ratio"}`, with
    /// `bytes` in place of `nsPerOp` for a memory case; a case not in this build has
    /// `"nsPerOp": null` and `"available": false`; a slow case skipped by `--quick` has
    /// `"nsPerOp": null` and `"skipped": true`. A timed case adds `"rounds"` and
    /// `"spread": {"min", "max"}` (nanoseconds per operation of its fastest and slowest round);
    /// one with a reference adds `"ratioSpread": {"min", "max"}` over the per-round ratios.
    static func json(_ results: [BenchResult]) -> String {
        let objects = results.map { result -> String in
            var fields = ["\"case\": \(quoted(result.benchCase.id))"]
            switch result.figure {
            case .nanosecondsPerOperation(let nanoseconds):
                fields.append("\"nsPerOp\": \(number(nanoseconds))")
            case .bytes(let bytes):
                fields.append("\"bytes\": \(bytes)")
            case .unavailable, .skipped:
                fields.append("\"nsPerOp\": null")
            }
            fields.append("\"reference\": \(result.benchCase.reference.map(quoted) ?? "null")")
            fields.append("\"ratio\": \(result.ratio.map(number) ?? "null")")
            if let spread = result.spread {
                fields.append("\"rounds\": \(result.samples.count)")
                fields.append(
                    "\"spread\": {\"min\": \(number(spread.lowerBound)), \"max\": \(number(spread.upperBound))}")
            }
            if let spread = result.ratioSpread {
                fields.append(
                    "\"ratioSpread\": {\"min\": \(number(spread.lowerBound)), \"max\": \(number(spread.upperBound))}")
            }
            if case .unavailable = result.figure { fields.append("\"available\": false") }
            if case .skipped = result.figure { fields.append("\"skipped\": true") }
            return "  {" + fields.joined(separator: ", ") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// Half the range relative to the median, as `±4%`; empty for a single round.
    private static func spreadText(_ spread: ClosedRange<Double>?, median: Double) -> String {
        guard let spread, spread.upperBound > spread.lowerBound, median > 0 else { return "" }
        let percent = (spread.upperBound - spread.lowerBound) / 2 / median * 100
        return "±" + BenchFormat.fixed(percent, decimals: percent < 10 ? 1 : 0) + "%"
    }

    private static func verdict(_ met: Bool?) -> String {
        switch met {
        case true?: "yes"
        case false?: "NO"
        case nil: ""
        }
    }

    private static func number(_ x: Double) -> String {
        x.isFinite ? BenchFormat.fixed(x, decimals: x < 10 ? 3 : 1) : "null"
    }

    private static func quoted(_ text: String) -> String {
        (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
