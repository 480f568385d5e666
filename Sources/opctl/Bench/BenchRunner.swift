import Dispatch

/// Measures cases the same way for every case: calibrate the iteration count to the round
/// length, run one warm-up round, then time the configured rounds and keep the median.
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

    /// Measures one case.
    func measure(_ benchCase: BenchCase) -> Figure {
        if benchCase.isSlow && config.skipsSlowCases { return .skipped }
        switch benchCase.measure {
        case .timed(let body):
            return .nanosecondsPerOperation(timePerOperation(body))
        case .residentGrowth(let body):
            _ = body(config.memoryLaunches)  // warm-up
            let growths = (0..<max(1, config.memoryRounds)).map { _ in body(config.memoryLaunches) }
            return .bytes(growths.max() ?? 0)
        case .unavailable:
            return .unavailable
        }
    }

    /// Median nanoseconds per operation of `body` over the configured rounds.
    func timePerOperation(_ body: (Int) -> Void) -> Double {
        let iterations = config.fixedIterations ?? calibratedIterations(body)
        _ = time(body, iterations)  // warm-up round
        let samples = (0..<max(1, config.rounds)).map { _ in time(body, iterations) / Double(iterations) }
        return Self.median(samples)
    }

    /// The iteration count whose round takes about ``BenchConfig/roundNanoseconds``: after one
    /// untimed call, grow the count until a round takes a tenth of that, then scale.
    private func calibratedIterations(_ body: (Int) -> Void) -> Int {
        let goal = config.roundNanoseconds
        // One untimed call first: a one-time cost (a formatter, a time zone, a file system cache
        // loaded on first use) must not pass for the cost of one operation, or the count comes
        // out a few operations and every round measures mostly its set-up.
        body(1)
        var iterations = 1
        while true {
            let elapsed = time(body, iterations)
            if elapsed >= goal / 10 || iterations >= 1 << 30 {
                return max(1, Int(Double(iterations) * goal / max(elapsed, 1)))
            }
            let factor = elapsed > 0 ? min(100, max(2, goal / 10 / elapsed)) : 100
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
