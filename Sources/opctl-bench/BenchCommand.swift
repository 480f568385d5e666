import Foundation

/// `opctl-bench`: the engine's cost side by side with Foundation, Dispatch and Swift
/// concurrency, in one process (issue 6).
enum BenchCommand {
    static let abstract = "Measure the engine's overhead next to OperationQueue, Dispatch and async/await."

    static var help: String {
        let ids = BenchCases.all.map { benchCase in
            "  \(benchCase.id.padding(toLength: 22, withPad: " ", startingAt: 0))"
                + (benchCase.isAvailable ? benchCase.summary : "\(benchCase.summary) (\(BenchReport.unavailableNote))")
        }
        return """
            OVERVIEW: \(abstract)

            Warms each case up, then runs every case once per round, in interleaved rounds, and
            prints the median nanoseconds per operation with the spread of the rounds, the ratio
            to the case's reference taken round by round (so a slow spell of the machine moves
            both sides together) and the case's guard, if it has one. Only what a person or a CI
            bill notices is guarded (whole commands, a durable step against the disk's floor, the
            explorer, memory staying flat, an async-function operation against the bridge); every
            other case is a figure. A full run exits with status 1 when a guard is missed; a
            quick run or one of fixed iterations only reports. Build in release mode:
            swift run -c release opctl-bench

            USAGE: opctl-bench [--quick] [--json] [--case <id>...] [--iterations <n>]

            OPTIONS:
              --quick         Three short rounds per case: a few seconds in all;
                              render.100k is skipped (reported as skipped).
              --json          Print a JSON array of {"case", "nsPerOp", "reference", "ratio",
                              "rounds", "spread", "ratioSpread"} ("bytes" instead of
                              "nsPerOp" for memory cases).
              --case <id>...  Run only these cases (and the references their ratios need).
              --iterations <n>
                              Run <n> operations per round instead of calibrating to the
                              clock: the same work every run, for valgrind --tool=callgrind.
              -h, --help      Show this help.

            CASES:
            \(ids.joined(separator: "\n"))

            """
    }

    /// Runs `opctl-bench` with its arguments.
    ///
    /// - Parameter arguments: The command line after the program name.
    /// - Returns: The exit status: 0; 1 when a full run missed a guard; 2 for a usage error.
    static func run(arguments: [String]) -> Int32 {
        let options: BenchOptions
        do {
            options = try BenchOptions.parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("opctl-bench: \(error) (see 'opctl-bench --help')\n".utf8))
            return 2
        }
        if options.help {
            print(help, terminator: "")
            return 0
        }
        var config: BenchConfig = options.quick ? .quick : .full
        if let iterations = options.iterations {
            config.fixedIterations = iterations
            config.memoryLaunches = iterations
        }
        let results = BenchResult.run(BenchCases.closure(of: options.cases), config: config)
        if options.json {
            print(BenchReport.json(results), terminator: "")
        } else {
            print(header(config), terminator: "")
            print(BenchReport.table(results), terminator: "")
        }
        // The guards are the full run's: a quick run's few short rounds, or a fixed count of
        // iterations for a profiler, only show that every case still runs.
        let judged = !options.quick && options.iterations == nil
        return judged && results.contains { $0.isMet == false } ? 1 : 0
    }

    private static func header(_ config: BenchConfig) -> String {
        #if DEBUG
            let build = "debug build: figures are not representative, use -c release"
        #else
            let build = "release build"
        #endif
        let kind =
            if let iterations = config.fixedIterations {
                "\(iterations) iterations per round"
            } else {
                config.roundNanoseconds < 50_000_000 ? "quick run" : "full run"
            }
        return
            "opctl-bench — \(kind), \(build), \(config.rounds) interleaved rounds after a warm-up (median; ratios per round), "
            + "\(ProcessInfo.processInfo.activeProcessorCount) cores\n\n"
    }
}
