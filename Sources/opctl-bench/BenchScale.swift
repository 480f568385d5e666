import Synchronization

/// How large the state directories of the scale cases are (`process.runs`, `store.open`,
/// `journal.resume100k`…): what the design's guards name in a full run, less with `--quick` so
/// that CI proves the cases still run without waiting for 50,000 copies, and a handful in the
/// tests' smoke run. Chosen once per run of the benchmark, before any case makes its fixture.
struct BenchScale: Sendable, Equatable {
    /// Runs in the state directory the whole-process and store cases use.
    var runs: Int
    /// Lines in the journal `journal.resume100k` resumes.
    var journalLines: Int

    /// The guards' sizes: 50,000 runs, a 100,000-line journal.
    static let full = BenchScale(runs: 50_000, journalLines: 100_000)
    /// `--quick`: 2,000 runs, a 10,000-line journal.
    static let quick = BenchScale(runs: 2_000, journalLines: 10_000)
    /// The tests' smoke run: enough to run each case once.
    static let smoke = BenchScale(runs: 20, journalLines: 200)

    private static let chosen = Mutex(BenchScale.full)

    /// The scale of this run of the benchmark.
    static var current: BenchScale { chosen.withLock { $0 } }

    /// Chooses the scale; fixtures already made at another scale are kept, each under a name
    /// of its own size.
    static func use(_ scale: BenchScale) {
        chosen.withLock { $0 = scale }
    }
}
