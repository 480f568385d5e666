/// One measured case with its comparison: what the report prints and the JSON carries.
struct BenchResult: Sendable {
    /// The case measured.
    let benchCase: BenchCase
    /// Its figure.
    let figure: BenchRunner.Figure
    /// The reference case's figure, when the case has a reference and it was measured.
    let referenceFigure: Double?

    /// The case's figure divided by its reference's.
    var ratio: Double? {
        guard let value = figure.value, let referenceFigure, referenceFigure > 0 else { return nil }
        return value / referenceFigure
    }

    /// Whether every target is met; `nil` when there is no target or no figure to judge.
    var isMet: Bool? {
        guard !benchCase.targets.isEmpty, let value = figure.value else { return nil }
        var met = true
        for target in benchCase.targets {
            guard let verdict = target.isMet(by: value, reference: referenceFigure) else { return nil }
            met = met && verdict
        }
        return met
    }

    /// Measures `cases` in order and pairs each with its reference's figure.
    static func run(_ cases: [BenchCase], config: BenchConfig, progress: (BenchCase) -> Void = { _ in })
        -> [BenchResult]
    {
        let runner = BenchRunner(config: config)
        var figures: [String: BenchRunner.Figure] = [:]
        for benchCase in cases {
            progress(benchCase)
            figures[benchCase.id] = runner.measure(benchCase)
        }
        return cases.map { benchCase in
            BenchResult(
                benchCase: benchCase,
                figure: figures[benchCase.id] ?? .unavailable,
                referenceFigure: benchCase.reference.flatMap { figures[$0]?.value })
        }
    }
}
