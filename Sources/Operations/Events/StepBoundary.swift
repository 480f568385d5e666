/// Where a scenario stands when it takes its waiting events: between two steps, or at its end.
public struct StepBoundary: Sendable, CustomStringConvertible {
    /// The scenario whose run is at the boundary.
    public let scenario: String
    /// The step about to launch (or to be skipped, for a conditional step); `nil` at the end,
    /// after the last step and before the scenario finishes.
    public let nextStep: String?
    /// The scenario's context: a handler launches what it reacts with (an operation launched
    /// alone, as a key service would) with it, so the launch is traced under the scenario and
    /// cancelled with it.
    public let context: OpContext<Void>

    /// Creates a boundary, e.g. to unit-test an ``EventHandler``.
    public init(scenario: String, nextStep: String?, context: OpContext<Void> = OpContext(())) {
        self.scenario = scenario
        self.nextStep = nextStep
        self.context = context
    }

    /// `before CodeOp` or `at the end`, for notes and messages.
    public var description: String {
        nextStep.map { "before \($0)" } ?? "at the end"
    }
}
