/// One measured case with its comparison: what the report prints and the JSON carries.
struct BenchResult: Sendable {
    let benchCase: BenchCase
    /// Its figure: the median over the rounds.
    let figure: BenchRunner.Figure
    /// The reference case's figure, when the case has a reference and it was measured.
    let referenceFigure: Double?
    /// Nanoseconds per operation in each round, in round order (timed cases only).
    var samples: [Double] = []
    /// The case's figure divided by its reference's, round by round.
    var roundRatios: [Double] = []

    /// The median of the per-round ratios to the reference; the ratio of the medians when the
    /// rounds were not paired.
    var ratio: Double? {
        if !roundRatios.isEmpty { return BenchRunner.median(roundRatios) }
        guard let value = figure.value, let referenceFigure, referenceFigure > 0 else { return nil }
        return value / referenceFigure
    }

    /// The lowest and highest round of the case, in nanoseconds per operation.
    var spread: ClosedRange<Double>? {
        guard let low = samples.min(), let high = samples.max() else { return nil }
        return low...high
    }

    /// The lowest and highest per-round ratio.
    var ratioSpread: ClosedRange<Double>? {
        guard let low = roundRatios.min(), let high = roundRatios.max() else { return nil }
        return low...high
    }

    /// Whether every target is met; `nil` when there is no target or no figure to judge.
    var isMet: Bool? {
        guard !benchCase.targets.isEmpty, let value = figure.value else { return nil }
        var met = true
        for target in benchCase.targets {
            guard let verdict = target.isMet(by: value, ratio: ratio) else { return nil }
            met = met && verdict
        }
        return met
    }

    /// Measures `cases`: the timed ones in interleaved rounds (every case once per round), then
    /// the memory cases, and pairs each case with its reference round by round.
    static func run(_ cases: [BenchCase], config: BenchConfig) -> [BenchResult] {
        BenchScale.use(config.scale)
        let runner = BenchRunner(config: config)
        var timed: [(id: String, body: @Sendable (Int) -> Void, iterations: Int, parts: Int)] = []
        for benchCase in cases {
            if case .timed(let body) = benchCase.measure, !(benchCase.isSlow && config.skipsSlowCases) {
                timed.append((benchCase.id, body, runner.prepare(body), benchCase.partsPerRound))
            }
        }
        var samples: [String: [Double]] = [:]
        for _ in 0..<max(1, config.rounds) {
            for entry in timed {
                samples[entry.id, default: []].append(
                    runner.sample(entry.body, iterations: entry.iterations, parts: entry.parts))
            }
        }
        var figures: [String: BenchRunner.Figure] = [:]
        for benchCase in cases {
            figures[benchCase.id] =
                samples[benchCase.id].map { .nanosecondsPerOperation(BenchRunner.median($0)) }
                ?? runner.measure(benchCase)
        }
        return cases.map { benchCase in
            var result = BenchResult(
                benchCase: benchCase,
                figure: figures[benchCase.id] ?? .unavailable,
                referenceFigure: benchCase.reference.flatMap { figures[$0]?.value })
            result.samples = samples[benchCase.id] ?? []
            if let reference = benchCase.reference, let referenceSamples = samples[reference] {
                result.roundRatios = zip(result.samples, referenceSamples).compactMap { $1 > 0 ? $0 / $1 : nil }
            }
            return result
        }
    }
}
