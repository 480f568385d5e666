/// Chains the steps of a scenario so that each step's output is the next step's input.
///
/// The chain is checked by the compiler: ``then(_:)`` accepts only a step whose input type is
/// the current output type. A builder is a value; every method returns a longer chain.
public struct ScenarioBuilder<Input: Sendable, Current: Sendable>: Sendable {
    @usableFromInline typealias Body = @Sendable (OpContext<Input>, ScenarioRun, @escaping OnFinish<Current>) -> Void

    /// The names of the steps so far, in order.
    public var stepNames: [String] { outlines.map(\.name) }
    /// The steps so far, as their scenario's shape needs them.
    @usableFromInline let outlines: [StepOutline]
    @usableFromInline let body: Body

    @usableFromInline
    init(outlines: [StepOutline], body: @escaping Body) {
        self.outlines = outlines
        self.body = body
    }

    /// Appends a step that takes the current value and produces the next one.
    ///
    /// - Parameter step: The step; its input type must be the current output type.
    /// - Returns: The chain, now producing the step's output.
    @inlinable  // the step's closure is specialised where the scenario is built: no metadata lookups per launch
    public func then<Next: Sendable>(_ step: Step<Current, Next>) -> ScenarioBuilder<Input, Next> {
        let index = outlines.count
        let previous = body
        return ScenarioBuilder<Input, Next>(outlines: outlines + [step.outline(conditional: false)]) {
            context, run, onFinish in
            previous(context, run) { result in
                switch result {
                case .success(let value):
                    StepRun.start(step, index: index, input: value, context: context, run: run, onFinish: onFinish)
                case .failure(let error):
                    onFinish(.failure(error))
                }
            }
        }
    }

    /// Appends a step that runs only when `condition` holds for the current value, and is
    /// skipped otherwise (the value passes on unchanged).
    ///
    /// - Parameters:
    ///   - step: A step that takes and returns the current type.
    ///   - condition: Decides from the current value whether the step runs.
    ///   - description: The condition in words, e.g. `terms required`: the label of the `opt`
    ///     frame around the step in a run's diagram, and of the note when it is skipped.
    /// - Returns: The chain, producing the same type.
    public func then(
        _ step: Step<Current, Current>, when condition: @escaping @Sendable (Current) -> Bool,
        describedAs description: String? = nil
    ) -> ScenarioBuilder<Input, Current> {
        let index = outlines.count
        let previous = body
        return ScenarioBuilder(outlines: outlines + [step.outline(conditional: true)]) { context, run, onFinish in
            previous(context, run) { result in
                switch result {
                case .success(let value) where condition(value):
                    let finish = ConditionalStepTrace.running(
                        step.name, description: description, context: context, onFinish: onFinish)
                    StepRun.start(step, index: index, input: value, context: context, run: run, onFinish: finish)
                case .success(let value):
                    run.report(.stepSkipped, address: run.address(index: index, name: step.name), value: value)
                    ConditionalStepTrace.skipped(step.name, description: description, context: context)
                    onFinish(.success(value))
                case .failure:
                    onFinish(result)
                }
            }
        }
    }

    /// Appends a step that works on a part of the current value: it is launched with
    /// `input(current)` when `condition` holds, and its output is folded back with `merge`;
    /// when the condition is false the step is skipped and the value passes on unchanged.
    ///
    /// This is how a reusable operation with its own narrow types joins a chain, e.g. the terms
    /// step launched with just the phone token of a sign-in attempt:
    ///
    /// ```swift
    /// .then(Step(makeTermsOfUseOp), when: \.termsRequired, input: \.phoneToken) { attempt, acceptance in
    ///     attempt.accepting(acceptance)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - step: The step, with its own input and output types.
    ///   - condition: Whether the step runs for the current value.
    ///   - description: The condition in words, e.g. `terms required`: the label of the `opt`
    ///     frame around the step in a run's diagram, and of the note when it is skipped.
    ///   - input: The step's input, taken from the current value.
    ///   - merge: The next value, from the current value and the step's output.
    /// - Returns: The chain, producing the same type.
    public func then<StepInput: Sendable, StepOutput: Sendable>(
        _ step: Step<StepInput, StepOutput>,
        when condition: @escaping @Sendable (Current) -> Bool = { _ in true },
        describedAs description: String? = nil,
        input: @escaping @Sendable (Current) -> StepInput,
        merge: @escaping @Sendable (Current, StepOutput) -> Current
    ) -> ScenarioBuilder<Input, Current> {
        let index = outlines.count
        let previous = body
        // A step given a condition is conditional in the shape; one without (the default
        // `{ _ in true }`) cannot be told apart here, so every step of this form is.
        return ScenarioBuilder(outlines: outlines + [step.outline(conditional: true)]) { context, run, onFinish in
            previous(context, run) { result in
                guard case .success(let value) = result else { return onFinish(result) }
                guard condition(value) else {
                    run.report(.stepSkipped, address: run.address(index: index, name: step.name), value: value)
                    ConditionalStepTrace.skipped(step.name, description: description, context: context)
                    return onFinish(.success(value))
                }
                let finish = ConditionalStepTrace.running(
                    step.name, description: description, context: context, onFinish: onFinish)
                StepRun.start(step, index: index, input: input(value), context: context, run: run) { stepResult in
                    if case .success = stepResult {
                        ValueTrace.computed(Current.self, from: Current.self, StepOutput.self, in: context)
                    }
                    finish(stepResult.map { merge(value, $0) })
                }
            }
        }
    }

    /// Appends a step that takes part of the current value, then builds the next value from the
    /// current one and the step's output: how a later step gets an earlier value (the cart, the
    /// phone) without every operation between carrying it forward.
    ///
    /// ```swift
    /// .then(Step(factory.makePaymentOp), input: \.total) { order, receipt in
    ///     PaidOrder(order: order, receipt: receipt)
    /// }
    /// ```
    ///
    /// The step is journaled and replayed with its own output; `combine` runs again on a resumed
    /// run, so keep it a pure function of its arguments.
    ///
    /// - Parameters:
    ///   - step: The step, with its own input and output types.
    ///   - input: The step's input, taken from the current value.
    ///   - combine: The next value, from the current value and the step's output.
    /// - Returns: The chain, producing what `combine` makes.
    public func then<StepInput: Sendable, StepOutput: Sendable, Next: Sendable>(
        _ step: Step<StepInput, StepOutput>,
        input: @escaping @Sendable (Current) -> StepInput,
        combine: @escaping @Sendable (Current, StepOutput) -> Next
    ) -> ScenarioBuilder<Input, Next> {
        let index = outlines.count
        let previous = body
        return ScenarioBuilder<Input, Next>(outlines: outlines + [step.outline(conditional: false)]) {
            context, run, onFinish in
            previous(context, run) { result in
                switch result {
                case .success(let value):
                    StepRun.start(step, index: index, input: input(value), context: context, run: run) { stepResult in
                        if case .success = stepResult {
                            ValueTrace.computed(Next.self, from: Current.self, StepOutput.self, in: context)
                        }
                        onFinish(stepResult.map { combine(value, $0) })
                    }
                case .failure(let error):
                    onFinish(.failure(error))
                }
            }
        }
    }

    /// Converts the current value without launching anything (pick a field, wrap a value).
    ///
    /// - Parameter transform: A pure function of the current value; an error it throws ends
    ///   the scenario.
    /// - Returns: The chain, producing the transformed value.
    public func map<Next: Sendable>(_ transform: @escaping @Sendable (Current) throws -> Next)
        -> ScenarioBuilder<Input, Next>
    {
        let previous = body
        return ScenarioBuilder<Input, Next>(outlines: outlines) { context, run, onFinish in
            previous(context, run) { result in
                if case .success = result { ValueTrace.computed(Next.self, from: Current.self, in: context) }
                onFinish(result.flatMap { value in Result { try transform(value) } })
            }
        }
    }
}

extension ScenarioBuilder where Current == Input {
    /// The empty chain: its output is the scenario's input.
    @inlinable
    static var start: ScenarioBuilder {
        ScenarioBuilder(outlines: []) { context, _, onFinish in onFinish(.success(context.input)) }
    }
}
