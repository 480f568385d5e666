/// Chains the steps of a scenario so that each step's output is the next step's input.
///
/// The chain is checked by the compiler: ``then(_:)`` accepts only a step whose input type is
/// the current output type. A builder is a value; every method returns a longer chain.
public struct ScenarioBuilder<Input: Sendable, Current: Sendable>: Sendable {
    /// The names of the steps so far, in order.
    public var stepNames: [String] { outlines.map(\.name) }
    /// The steps so far, as their scenario's shape needs them.
    let outlines: [StepOutline]
    /// The chain's links so far (steps and maps), in order.
    let links: [ChainLink]

    init(outlines: [StepOutline], links: [ChainLink]) {
        self.outlines = outlines
        self.links = links
    }

    /// Appends a step that takes the current value and produces the next one.
    public consuming func then<Next: Sendable>(_ step: Step<Current, Next>) -> ScenarioBuilder<Input, Next> {
        let index = outlines.count
        return appending(step.outline(conditional: false), step: step.name) { value, run, position in
            StepLife(run: run, step: step, index: index) { run.pass($0, after: position) }.start(value)
        }
    }

    /// Appends a step that runs only when `condition` holds for the current value, and is
    /// skipped otherwise (the value passes on unchanged).
    ///
    /// `description` is the condition in words, e.g. `terms required`: the label of the `opt`
    /// frame around the step in a run's diagram, and of the note when it is skipped.
    public consuming func then(
        _ step: Step<Current, Current>, when condition: @escaping @Sendable (Current) -> Bool,
        describedAs description: String? = nil
    ) -> ScenarioBuilder<Input, Current> {
        conditional(step.name, step.outline(conditional: true), when: condition, describedAs: description) {
            value, index, run, finish in
            StepLife(run: run, step: step, index: index, finish: finish).start(value)
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
    /// `description` labels the step's `opt` frame and its skip note, as in
    /// ``then(_:when:describedAs:)``.
    public consuming func then<StepInput: Sendable, StepOutput: Sendable>(
        _ step: Step<StepInput, StepOutput>,
        when condition: @escaping @Sendable (Current) -> Bool = { _ in true },
        describedAs description: String? = nil,
        input: @escaping @Sendable (Current) -> StepInput,
        merge: @escaping @Sendable (Current, StepOutput) -> Current
    ) -> ScenarioBuilder<Input, Current> {
        // Without a condition (the default) it cannot be told apart here: conditional in the shape.
        conditional(step.name, step.outline(conditional: true), when: condition, describedAs: description) {
            value, index, run, finish in
            StepLife(run: run, step: step, index: index) { stepResult in
                if case .success = stepResult {
                    ValueTrace.computed(Current.self, from: { [Current.self, StepOutput.self] }, trace: run.trace)
                }
                finish(stepResult.map { merge(value, $0) })
            }.start(input(value))
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
    public consuming func then<StepInput: Sendable, StepOutput: Sendable, Next: Sendable>(
        _ step: Step<StepInput, StepOutput>,
        input: @escaping @Sendable (Current) -> StepInput,
        combine: @escaping @Sendable (Current, StepOutput) -> Next
    ) -> ScenarioBuilder<Input, Next> {
        let index = outlines.count
        return appending(step.outline(conditional: false), step: step.name) { value, run, position in
            StepLife(run: run, step: step, index: index) { stepResult in
                if case .success = stepResult {
                    ValueTrace.computed(Next.self, from: { [Current.self, StepOutput.self] }, trace: run.trace)
                }
                run.pass(stepResult.map { combine(value, $0) }, after: position)
            }.start(input(value))
        }
    }

    /// Converts the current value without launching anything (pick a field, wrap a value) with
    /// a pure function; an error it throws ends the scenario.
    public consuming func map<Next: Sendable>(_ transform: @escaping @Sendable (Current) throws -> Next)
        -> ScenarioBuilder<Input, Next>
    {
        appending(nil, step: nil) { value, run, position in
            ValueTrace.computed(Next.self, from: { [Current.self] }, trace: run.trace)
            run.pass(Result { try transform(value) }, after: position)
        }
    }

    /// The chain with one more link (see ``ChainLink``).
    consuming func appending<Next: Sendable>(
        _ outline: StepOutline?, step: String?,
        _ body: @escaping @Sendable (_ value: Current, _ run: ScenarioRun, _ position: Int) -> Void
    ) -> ScenarioBuilder<Input, Next> {
        let link = ChainLink(step: step) { value, run, position in
            // The link before this one handed on a `Current`: the builder's types chain them.
            guard let value = value as? Current else {
                preconditionFailure("a scenario's link was handed \(type(of: value)), not \(Current.self)")
            }
            body(value, run, position)
        }
        // Taken out of this builder before appending, so a chain written as one expression
        // appends to unshared arrays (Docs/Benchmarks.md).
        var outlines = self.outlines
        var links = self.links
        self = ScenarioBuilder(outlines: [], links: [])
        if let outline { outlines.append(outline) }
        links.append(link)
        return ScenarioBuilder<Input, Next>(outlines: outlines, links: links)
    }

    /// The link of both conditional forms of `then`: skipped, or run by `start` in an `opt` frame.
    private consuming func conditional(
        _ name: String, _ outline: StepOutline, when condition: @escaping @Sendable (Current) -> Bool,
        describedAs description: String?,
        _ start: @escaping @Sendable (Current, Int, ScenarioRun, @escaping StepFinish<Current>) -> Void
    ) -> ScenarioBuilder<Input, Current> {
        let index = outlines.count
        return appending(outline, step: name) { value, run, position in
            guard condition(value) else {
                // Reported and drawn, so a reader sees every step of the scenario, run or not.
                run.report(.stepSkipped, address: run.address(index: index, name: name), value: value)
                run.trace?.note("skipped \(name): \(description ?? "its condition") is false")
                return run.pass(.success(value), after: position)
            }
            // Drawn inside an `opt` frame labelled with the condition, closed before the scenario
            // hears of the result.
            let trace = run.trace?.isEnabled == true ? run.trace : nil
            trace?.openFrame(.opt, description ?? "\(name)'s condition holds")
            start(value, index, run) { result in
                trace?.closeFrame()
                run.pass(result, after: position)
            }
        }
    }
}

extension ScenarioBuilder where Current == Input {
    /// The empty chain: its output is the scenario's input.
    static var start: ScenarioBuilder { ScenarioBuilder(outlines: [], links: []) }
}
