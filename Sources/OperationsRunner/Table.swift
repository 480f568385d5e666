import Foundation

/// Plain aligned columns, no trailing spaces: the tables of `runs`, `prune --dry-run` and a
/// program's own listings.
enum Table {
    /// The lines of `rows`, the first row being the header.
    static func render(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
