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

    let launchNew: @Sendable (OpContext<Input>, @escaping OnFinish<Output>) -> Void

    /// Creates a step named after its operation type.
    ///
    /// - Parameters:
    ///   - make: Makes a new operation for every launch (usually a factory method).
    ///   - purity: Overrides the purity the operation type declares (see ``PureOp``).
    public init<O: Op>(_ make: @escaping @Sendable () -> O, purity: Purity? = nil)
    where O.Input == Input, O.Output == Output {
        self.init(String(describing: O.self), purity: purity, make)
    }

    /// Creates a named step.
    ///
    /// - Parameters:
    ///   - name: The step's name in progress, journals and diagrams.
    ///   - purity: Overrides the purity the operation type declares (see ``PureOp``).
    ///   - make: Makes a new operation for every launch.
    public init<O: Op>(_ name: String, purity: Purity? = nil, _ make: @escaping @Sendable () -> O)
    where O.Input == Input, O.Output == Output {
        self.name = name
        self.purity = purity ?? Purity.of(O.self)
        self.launchNew = { context, onFinish in make().launch(context, onFinish: onFinish) }
    }

    /// The same step with a retry policy.
    ///
    /// - Parameter policy: When to launch the step again after a failure.
    /// - Returns: The step with `policy`.
    public func retrying(_ policy: RetryPolicy) -> Step {
        var copy = self
        copy.retry = policy
        return copy
    }

    /// The same step with a failure handler, consulted when the retry policy gives up.
    ///
    /// - Parameter handler: Decides to relaunch with new input, recover, or fail.
    /// - Returns: The step with `handler`.
    public func onFailure(_ handler: @escaping FailureHandler<Input, Output>) -> Step {
        var copy = self
        copy.failureHandler = handler
        return copy
    }
}
