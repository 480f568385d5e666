/// The parsed command line of `opctl-bench`.
struct BenchOptions: Sendable, Equatable {
    /// `--quick`: a few seconds, to prove the benchmark still runs.
    var quick = false
    /// `--json`: print the JSON array instead of the table.
    var json = false
    /// `--case ID…`: only these cases (and the references their ratios need).
    var cases: [String] = []
    /// `--iterations N`: a fixed iteration count per round instead of calibrating to the clock,
    /// so a run under `valgrind --tool=callgrind` does the same work every time.
    var iterations: Int?
    var help = false

    /// A command line `opctl-bench` cannot run; its description is the one-line message.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Parses the arguments after the program name.
    ///
    /// `--case` takes one or more ids, up to the next option; ids may also be comma-separated
    /// and `--case` may be repeated.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing or unknown case id.
    static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--quick": options.quick = true
            case "--json": options.json = true
            case "-h", "--help": options.help = true
            case "--iterations":
                guard index < arguments.endIndex, let count = Int(arguments[index]), count > 0 else {
                    throw UsageError(description: "--iterations needs a positive count")
                }
                options.iterations = count
                index += 1
            case "--case":
                var ids: [String] = []
                while index < arguments.endIndex, !arguments[index].hasPrefix("-") {
                    ids += arguments[index].split(separator: ",").map(String.init)
                    index += 1
                }
                guard !ids.isEmpty else { throw UsageError(description: "--case needs at least one case id") }
                options.cases += ids
            default:
                throw UsageError(description: "unknown option '\(argument)'")
            }
        }
        if let unknown = options.cases.first(where: { BenchCases.named($0) == nil }) {
            throw UsageError(description: "unknown case '\(unknown)'")
        }
        return options
    }
}
