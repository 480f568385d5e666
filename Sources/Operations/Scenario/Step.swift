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
    /// The step's parts behind one reference, shared by every launch of its scenario.
    final class Storage: Sendable {
        let name: String
        let purity: Purity
        let retry: RetryPolicy
        let failureHandler: FailureHandler<Input, Output>?
        /// The shape of the scenario the step launches, made only when asked for (it builds one
        /// operation from the factory, launching nothing); `nil` when the operation is not a
        /// ``ScenarioShapeProviding`` scenario.
        let nestedShape: @Sendable () -> ScenarioShape?
        let launchNew: @Sendable (OpContext<Input>, @escaping OnFinish<Output>) -> Void
        /// How a finished launch of the step is undone when a later step fails for good; `nil`
        /// when it is not (see ``Step/compensated(by:input:)``).
        let undo: StepUndo<Input, Output>?

        init(
            name: String, purity: Purity, retry: RetryPolicy, failureHandler: FailureHandler<Input, Output>?,
            nestedShape: @escaping @Sendable () -> ScenarioShape?,
            launchNew: @escaping @Sendable (OpContext<Input>, @escaping OnFinish<Output>) -> Void,
            undo: StepUndo<Input, Output>? = nil
        ) {
            self.name = name
            self.purity = purity
            self.retry = retry
            self.failureHandler = failureHandler
            self.nestedShape = nestedShape
            self.launchNew = launchNew
            self.undo = undo
        }

        /// The same parts with some replaced: how each modifier makes its new step.
        func with(
            retry: RetryPolicy? = nil, failureHandler: FailureHandler<Input, Output>? = nil,
            undo: StepUndo<Input, Output>? = nil
        ) -> Storage {
            Storage(
                name: name, purity: purity, retry: retry ?? self.retry,
                failureHandler: failureHandler ?? self.failureHandler, nestedShape: nestedShape, launchNew: launchNew,
                undo: undo ?? self.undo)
        }
    }

    let storage: Storage

    /// The name shown in progress, journals and diagrams; the operation's type name by default.
    public var name: String { storage.name }
    /// Whether relaunching the step is free of consequences.
    public var purity: Purity { storage.purity }
    /// When the step is retried after a failure.
    public var retry: RetryPolicy { storage.retry }
    /// How many attempts the retry policy allows: read on every launch, in place, where
    /// ``retry`` would copy the whole policy out (a closure and a backoff inside).
    var maxAttempts: Int { storage.retry.maxAttempts }
    /// What the scenario does when the step failed and will not be retried.
    public var failureHandler: FailureHandler<Input, Output>? { storage.failureHandler }

    /// The step's line in its scenario's shape.
    func outline(conditional: Bool) -> StepOutline {
        StepOutline(
            name: name, input: String(describing: Input.self), output: String(describing: Output.self),
            purity: purity, conditional: conditional, nested: storage.nestedShape, undoneBy: storage.undo?.name)
    }

    var launchNew: @Sendable (OpContext<Input>, @escaping OnFinish<Output>) -> Void {
        storage.launchNew
    }

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
        storage = Storage(
            name: name, purity: purity ?? Purity.of(O.self), retry: .never, failureHandler: nil,
            nestedShape: Self.nestedShape(of: O.self, make),
            launchNew: { context, onFinish in make().launch(context, onFinish: onFinish) })
    }

    /// Reads a nested scenario's shape from one operation of the factory, only when the
    /// operation type provides one.
    static func nestedShape<O: Op>(of type: O.Type, _ make: @escaping @Sendable () -> O)
        -> @Sendable () -> ScenarioShape?
    {
        guard type is any ScenarioShapeProviding.Type else { return { nil } }
        return {
            let operation: Any = make()
            return (operation as? any ScenarioShapeProviding)?.shape
        }
    }

    init(storage: Storage) {
        self.storage = storage
    }

    /// The same step with a retry policy.
    ///
    /// - Parameter policy: When to launch the step again after a failure.
    /// - Returns: The step with `policy`.
    public func retrying(_ policy: RetryPolicy) -> Step {
        Step(storage: storage.with(retry: policy))
    }

    /// The same step with a failure handler, consulted when the retry policy gives up.
    ///
    /// - Parameter handler: Decides to relaunch with new input, recover, or fail.
    /// - Returns: The step with `handler`.
    public func onFailure(_ handler: @escaping FailureHandler<Input, Output>) -> Step {
        Step(storage: storage.with(failureHandler: handler))
    }
}
