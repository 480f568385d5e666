import Dispatch

/// Measures cases the same way for every case, in interleaved rounds.
///
/// Each timed case is calibrated to the round length and warmed up once; then every round runs
/// every case once, in table order. A ratio is computed per round, from a case and its reference
/// measured seconds apart, so a machine that slows down for a while moves both sides of the
/// ratio together instead of one case alone.
struct BenchRunner: Sendable {
    /// What one case gave.
    enum Figure: Sendable, Equatable {
        /// Median nanoseconds per operation.
        case nanosecondsPerOperation(Double)
        /// Resident-size growth in bytes.
        case bytes(Int)
        /// The case's engine piece is not in this build.
        case unavailable
        /// A slow case that this run (`--quick`) skipped.
        case skipped

        /// The figure as a number (ns or bytes), `nil` when unavailable.
        var value: Double? {
            switch self {
            case .nanosecondsPerOperation(let nanoseconds): nanoseconds
            case .bytes(let bytes): Double(bytes)
            case .unavailable, .skipped: nil
            }
        }
    }

    let config: BenchConfig

    /// The iteration count for a timed case, after its untimed warm-up round.
    func prepare(_ body: (Int) -> Void) -> Int {
        let iterations = config.fixedIterations ?? calibratedIterations(body)
        _ = time(body, iterations)  // warm-up round
        return iterations
    }

    /// One timed round: nanoseconds per operation of `body(iterations)`, or, in `parts` parts
    /// of `iterations / parts` operations each, of the fastest part.
    func sample(_ body: (Int) -> Void, iterations: Int, parts: Int = 1) -> Double {
        guard parts > 1, iterations >= parts else { return time(body, iterations) / Double(iterations) }
        let share = iterations / parts
        return (0..<parts).map { _ in time(body, share) / Double(share) }.min() ?? .nan
    }

    /// Measures one case on its own (all its rounds in a row), as a case that is not timed per
    /// round is (memory growth, or no figure at all); ``BenchResult/run(_:config:)``
    /// interleaves the timed ones instead.
    func measure(_ benchCase: BenchCase) -> Figure {
        if benchCase.isSlow && config.skipsSlowCases { return .skipped }
        switch benchCase.measure {
        case .timed(let body):
            let iterations = prepare(body)
            let samples = (0..<max(1, config.rounds)).map { _ in
                sample(body, iterations: iterations, parts: benchCase.partsPerRound)
            }
            return .nanosecondsPerOperation(Self.median(samples))
        case .residentGrowth(let body):
            _ = body(config.memoryLaunches)  // warm-up
            let growths = (0..<max(1, config.memoryRounds)).map { _ in body(config.memoryLaunches) }
            return .bytes(growths.max() ?? 0)
        case .unavailable:
            return .unavailable
        }
    }

    /// The iteration count whose operations take about ``BenchConfig/roundNanoseconds`` a
    /// round: after one untimed call, grow the count until the *extra* time of twice as many
    /// operations reaches a tenth of that, then scale.
    ///
    /// Timing `n` and `2n` and taking the difference leaves out what a round does besides its
    /// operations (a journal case opens and closes a file in each; Docs/Benchmarks.md, "The
    /// benchmark's own method").
    private func calibratedIterations(_ body: (Int) -> Void) -> Int {
        let goal = config.roundNanoseconds
        // One untimed call first: a one-time cost (a formatter, a time zone, a file system cache
        // loaded on first use) must not pass for the cost of one operation.
        body(1)
        var iterations = 1
        while true {
            let once = time(body, iterations)
            let twice = time(body, iterations * 2)
            let extra = twice - once
            if extra >= goal / 10 || iterations >= 1 << 29 {
                return max(1, Int(Double(iterations) * goal / max(extra, 1)))
            }
            let factor = extra > 0 ? min(100, max(2, goal / 10 / extra)) : 100
            iterations = Int(Double(iterations) * factor)
        }
    }

    /// Wall-clock nanoseconds of one call of `body(iterations)`.
    private func time(_ body: (Int) -> Void, _ iterations: Int) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body(iterations)
        let end = DispatchTime.now().uptimeNanoseconds
        return Double(end - start)
    }

    /// The median of `samples` (the mean of the middle two for an even count).
    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
