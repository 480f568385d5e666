/// One link of a scenario: how to make its operation, what it is called, and what to do when it
/// fails.
///
/// A step holds a factory, not an operation: every launch and every relaunch gets a new
/// operation, so no attempt inherits state from the one before.
///
/// ```swift
/// Step(factory.makePhoneOp)
///     .retrying(.transient(maxAttempts: 3))
/// ```
public struct Step<Input: Sendable, Output: Sendable>: Sendable {
    /// The name shown in progress, journals and diagrams; the operation's type name by default.
    public let name: String
    /// Whether relaunching the step is free of consequences.
    public let purity: Purity
    /// When the step is retried after a failure.
    public private(set) var retry: RetryPolicy = .never
    /// What the scenario does when the step failed and will not be retried.
    public private(set) var failureHandler: FailureHandler<Input, Output>?
    /// The shape of the scenario the step launches, made from one operation only when asked for.
    let nestedShape: @Sendable () -> ScenarioShape?
    let launchNew: @Sendable (OpContext<Input>, @escaping OnFinish<Output>) -> Void
    /// See ``Step/compensated(by:input:)``.
    var undo: StepUndo<Input, Output>?

    func outline(conditional: Bool) -> StepOutline {
        var outline = StepOutline(
            name: name, input: String(describing: Input.self), output: String(describing: Output.self),
            purity: purity, conditional: conditional, nested: nestedShape, undoneBy: undo?.name)
        if let undo, purity == .pure {
            outline.definitionProblem = .compensationOnPureStep(step: name, compensation: undo.name)
        }
        return outline
    }

    /// Creates a step named after its operation type; `make` (usually a factory method) makes a
    /// new operation for every launch, and `purity` overrides the type's (see ``PureOp``).
    public init<O: Op>(_ make: @escaping @Sendable () -> O, purity: Purity? = nil)
    where O.Input == Input, O.Output == Output {
        self.init(String(describing: O.self), purity: purity, make)
    }

    /// Creates a step called `name` in progress, journals and diagrams.
    public init<O: Op>(_ name: String, purity: Purity? = nil, _ make: @escaping @Sendable () -> O)
    where O.Input == Input, O.Output == Output {
        self.name = name
        self.purity = purity ?? Purity.of(O.self)
        self.nestedShape = Self.nestedShape(of: O.self, make)
        self.launchNew = { context, onFinish in make().launch(context, onFinish: onFinish) }
    }

    static func nestedShape<O: Op>(of type: O.Type, _ make: @escaping @Sendable () -> O)
        -> @Sendable () -> ScenarioShape?
    {
        guard type is any ScenarioShapeProviding.Type else { return { nil } }
        return {
            let operation: Any = make()
            return (operation as? any ScenarioShapeProviding)?.shape
        }
    }

    /// The same step with a retry policy: when to launch it again after a failure.
    public func retrying(_ policy: RetryPolicy) -> Step {
        var step = self
        step.retry = policy
        return step
    }

    /// The same step with a failure handler, consulted when the retry policy gives up: it
    /// decides to relaunch with new input, recover, or fail.
    public func onFailure(_ handler: @escaping FailureHandler<Input, Output>) -> Step {
        var step = self
        step.failureHandler = handler
        return step
    }
}
