/// Prints bench results: a table for people, a JSON array for tools.
enum BenchReport {
    /// The text of a case that is not part of this build.
    static let unavailableNote = "not available in this build"
    /// The text of a slow case that `--quick` skipped.
    static let skippedNote = "skipped in quick mode"

    /// The table: case, ns/op, reference, ratio, target, met?.
    static func table(_ results: [BenchResult]) -> String {
        let header = ["case", "ns/op", "reference", "ratio", "target", "met?"]
        let rows = results.map { result -> [String] in
            let targets = result.benchCase.targets.map(\.label).joined(separator: ", ")
            switch result.figure {
            case .unavailable:
                return [result.benchCase.id, unavailableNote, result.benchCase.reference ?? "—", "", targets, ""]
            case .skipped:
                return [result.benchCase.id, skippedNote, result.benchCase.reference ?? "—", "", targets, ""]
            case .nanosecondsPerOperation(let nanoseconds):
                return [
                    result.benchCase.id, BenchFormat.fixed(nanoseconds, decimals: 1),
                    result.benchCase.reference ?? "—", result.ratio.map { BenchFormat.ratio($0) + "×" } ?? "",
                    targets, verdict(result.isMet),
                ]
            case .bytes(let bytes):
                return [result.benchCase.id, "\(BenchFormat.bytes(bytes)) RSS", "—", "", targets, verdict(result.isMet)]
            }
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        let numeric: Set<Int> = [1, 3]
        func line(_ cells: [String]) -> String {
            let padded = cells.indices.map { column -> String in
                let padding = String(repeating: " ", count: widths[column] - cells[column].count)
                // A note in the ns/op column reads left-aligned; numbers align right.
                let rightAligned = numeric.contains(column) && cells[column] != unavailableNote
                    && cells[column] != skippedNote
                return rightAligned ? padding + cells[column] : cells[column] + padding
            }
            return padded.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let rule = widths.map { String(repeating: "-", count: $0) }
        return ([line(header), line(rule)] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// The JSON array: one object per case, `{"case", "nsPerOp", "reference", "ratio"}`, with
    /// `bytes` in place of `nsPerOp` for a memory case; a case not in this build has
    /// `"nsPerOp": null` and `"available": false`; a slow case skipped by `--quick` has
    /// `"nsPerOp": null` and `"skipped": true`.
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
            if case .unavailable = result.figure { fields.append("\"available\": false") }
            if case .skipped = result.figure { fields.append("\"skipped\": true") }
            return "  {" + fields.joined(separator: ", ") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
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
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += "\\u" + hex4(scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension String {
    /// The string without spaces at its end.
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
