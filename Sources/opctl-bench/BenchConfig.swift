/// How long and how often `opctl-bench` measures each case.
struct BenchConfig: Sendable {
    /// Timed rounds after the warm-up; the report gives their median.
    var rounds: Int
    /// The time one round should take; the runner calibrates the iteration count to it.
    var roundNanoseconds: Double
    /// A fixed iteration count that skips calibration (tests use a tiny one).
    var fixedIterations: Int?
    /// Launches per round of a memory case (`memory.1M`, `memory.deadline`).
    var memoryLaunches: Int
    /// Rounds of a memory case after its warm-up; the report gives the largest growth.
    var memoryRounds: Int
    /// Whether cases marked slow (`render.100k`) are skipped and reported as such.
    var skipsSlowCases = false
    /// The size of the scale cases' state directories and journal.
    var scale = BenchScale.full

    /// The full run: eleven rounds of about 100 ms per case.
    static let full = BenchConfig(
        rounds: 11, roundNanoseconds: 100_000_000, fixedIterations: nil, memoryLaunches: 1_000_000, memoryRounds: 3)

    /// `--quick`: three rounds of about 5 ms per case; a few seconds in all, to prove it runs.
    /// Slow cases (`render.100k`) are skipped and reported as skipped; the scale cases use
    /// 2,000 runs and a 10,000-line journal (``BenchScale/quick``).
    static let quick = BenchConfig(
        rounds: 3, roundNanoseconds: 5_000_000, fixedIterations: nil, memoryLaunches: 1_000_000, memoryRounds: 1,
        skipsSlowCases: true, scale: .quick)

    /// A smoke run for tests: `iterations` operations per round, one round, no calibration, slow
    /// cases skipped.
    static func smoke(iterations: Int) -> BenchConfig {
        BenchConfig(
            rounds: 1, roundNanoseconds: 0, fixedIterations: iterations, memoryLaunches: iterations * 100,
            memoryRounds: 1, skipsSlowCases: true, scale: .smoke)
    }
}
