import Operations

/// A longest-common-subsequence line diff, for failure reports (not for rendering, so its
/// quadratic cost on long lists is acceptable; very long lists fall back to prefix/suffix).
enum LineDiff {
    static func lines(_ old: [String], _ new: [String]) -> [String] {
        let prefix = zip(old, new).prefix(while: { $0 == $1 }).count
        let oldRest = Array(old[prefix...])
        let newRest = Array(new[prefix...])
        let suffix = zip(oldRest.reversed(), newRest.reversed()).prefix(while: { $0 == $1 }).count
        let oldMiddle = Array(oldRest.dropLast(suffix))
        let newMiddle = Array(newRest.dropLast(suffix))
        var result = old.prefix(prefix).map { "  " + $0 }
        if oldMiddle.count * newMiddle.count > 1_000_000 {
            result += oldMiddle.map { "- " + $0 } + newMiddle.map { "+ " + $0 }
        } else {
            result += middle(oldMiddle, newMiddle)
        }
        result += old.suffix(suffix).map { "  " + $0 }
        return result
    }

    private static func middle(_ old: [String], _ new: [String]) -> [String] {
        let rows = old.count
        let columns = new.count
        var table = Array(repeating: Array(repeating: 0, count: columns + 1), count: rows + 1)
        for row in stride(from: rows - 1, through: 0, by: -1) {
            for column in stride(from: columns - 1, through: 0, by: -1) {
                table[row][column] =
                    old[row] == new[column]
                    ? table[row + 1][column + 1] + 1 : max(table[row + 1][column], table[row][column + 1])
            }
        }
        var result: [String] = []
        var row = 0
        var column = 0
        while row < rows || column < columns {
            if row < rows && column < columns && old[row] == new[column] {
                result.append("  " + old[row])
                row += 1
                column += 1
            } else if column < columns && (row == rows || table[row][column + 1] >= table[row + 1][column]) {
                result.append("+ " + new[column])
                column += 1
            } else {
                result.append("- " + old[row])
                row += 1
            }
        }
        return result
    }
}
