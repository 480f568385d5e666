public import Operations

/// Where a run made by `rerun ID --from STEP` came from: the run it reran and the step it
/// launched anew. Written once, in the new run's header, so the old run's journal is never
/// touched; a listing finds the runs made from a run by reading their headers (through the run
/// index), which is how the link reads both ways.
public struct RerunOrigin: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The run that was rerun.
    public let run: RunID
    /// The step the new run launched anew; the steps before it were replayed from `run`.
    public let step: StepAddress

    /// Creates an origin, each part as its property says.
    public init(run: RunID, step: StepAddress) {
        self.run = run
        self.step = step
    }

    /// `20261127-…-1a2b3c4d at VerificationScenario/CodeOp`: the step by its names only,
    /// as people type it after `--from`.
    public var description: String { "\(run) at \(step.namePath)" }

    private enum CodingKeys: String, CodingKey {
        case run, step
    }

    /// Reads the header's `rerunOf` object, whose `step` is an address as event lines write it
    /// (an array of components).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        run = try container.decode(RunID.self, forKey: .run)
        step = StepAddress(path: try container.decode([StepAddress.Component].self, forKey: .step))
    }

    /// Writes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(run, forKey: .run)
        try container.encode(step.path, forKey: .step)
    }
}

extension StepAddress {
    /// The step's names from the outermost down, `VerificationScenario/CodeOp`: the path form
    /// `rerun --from` accepts when a name alone is ambiguous.
    public var namePath: String { path.map(\.name).joined(separator: "/") }
}
