/// One row of `opctl-bench`: a stable id, what it measures, what it is compared with, and how to
/// measure it.
struct BenchCase: Sendable {
    /// How a case is measured.
    enum Measure: Sendable {
        /// Runs the operation `iterations` times in a row; the runner times the call and divides.
        case timed(@Sendable (_ iterations: Int) -> Void)
        /// Runs `launches` operations and returns the growth of resident memory in bytes.
        case residentGrowth(@Sendable (_ launches: Int) -> Int)
        /// The engine piece the case measures is not part of this build.
        case unavailable
    }

    /// The stable id (`op.sync`), used by `--case` and in the JSON output.
    let id: String
    /// One line: what one operation of the case is.
    let summary: String
    /// The id of the case this one is compared with, if any.
    let reference: String?
    /// The design's targets for this case.
    let targets: [BenchTarget]
    let measure: Measure
    /// Whether one operation takes long enough (about a second) that `--quick` skips the case.
    var isSlow = false
    /// In how many parts a round of the case is timed, the fastest part kept (see
    /// ``crossThread()``).
    var partsPerRound = 1

    /// A case timed in nanoseconds per operation.
    static func timed(
        _ id: String, _ summary: String, reference: String? = nil, targets: [BenchTarget] = [],
        _ body: @escaping @Sendable (_ iterations: Int) -> Void
    ) -> BenchCase {
        BenchCase(id: id, summary: summary, reference: reference, targets: targets, measure: .timed(body))
    }

    /// The same case, skipped by `--quick` because one operation takes about a second.
    func slow() -> BenchCase {
        var copy = self
        copy.isSlow = true
        return copy
    }

    /// The same case, for an operation that hands work to another thread: each round is timed in
    /// five parts of a fifth of the operations, and the fastest part is kept, because a stalled
    /// hand-off only ever adds time (Docs/Benchmarks.md, "The benchmark's own method").
    func crossThread() -> BenchCase {
        var copy = self
        copy.partsPerRound = 5
        return copy
    }

    /// A case whose engine piece has not landed in this build: listed, never faked.
    static func unavailable(
        _ id: String, _ summary: String, reference: String? = nil, targets: [BenchTarget] = []
    ) -> BenchCase {
        BenchCase(id: id, summary: summary, reference: reference, targets: targets, measure: .unavailable)
    }

    var isAvailable: Bool {
        if case .unavailable = measure { return false }
        return true
    }
}
