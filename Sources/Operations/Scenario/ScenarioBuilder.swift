/// Chains the steps of a scenario so that each step's output is the next step's input.
///
/// The chain is checked by the compiler: ``then(_:)`` accepts only a step whose input type is
/// the current output type. A builder is a value; every method returns a longer chain.
public struct ScenarioBuilder<Input: Sendable, Current: Sendable>: Sendable {
    /// Makes one link, given the link after it (type-erased, since a maker is stored beside
    /// makers of other types). A scenario calls the makers once, from the last to the first.
    @usableFromInline typealias Maker = @Sendable (_ next: any AnyObject & Sendable) -> any AnyObject & Sendable
    /// What a link does with the chain's value so far, given the link after it.
    @usableFromInline typealias Link<Next: Sendable> =
        @Sendable (Current, ChainLaunch<Input>, ChainLink<Input, Next>) -> Void
    /// What a built link does with the chain's value so far.
    @usableFromInline typealias LinkBody = ChainLink<Input, Current>.Body

    /// The names of the steps so far, in order.
    public var stepNames: [String] { outlines.map(\.name) }
    /// The steps so far, as their scenario's shape needs them.
    @usableFromInline let outlines: [StepOutline]
    /// The chain's links so far (steps and maps), in order.
    @usableFromInline let makers: [Maker]

    @usableFromInline
    init(outlines: [StepOutline], makers: [Maker]) {
        self.outlines = outlines
        self.makers = makers
    }

    /// Appends a step that takes the current value and produces the next one.
    ///
    /// - Parameter step: The step; its input type must be the current output type.
    /// - Returns: The chain, now producing the step's output.
    @inlinable  // the step's closure is specialised where the scenario is built: no metadata lookups per launch
    public func then<Next: Sendable>(_ step: Step<Current, Next>) -> ScenarioBuilder<Input, Next> {
        let index = outlines.count
        return extended(with: step.outline(conditional: false)) { next in
            // Made once, with the link, not per launch: the step's result goes on to `next`.
            let handOn = Self.handOn(to: next)
            return { value, launch in
                StepRun.start(step, index: index, input: value, launch: launch, onFinish: handOn)
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
        conditional(step.name, step.outline(conditional: true), when: condition, describedAs: description) {
            value, index, launch, finish in
            StepRun.start(step, index: index, input: value, launch: launch, onFinish: finish)
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
        // A step given a condition is conditional in the shape; one without (the default
        // `{ _ in true }`) cannot be told apart here, so every step of this form is.
        conditional(step.name, step.outline(conditional: true), when: condition, describedAs: description) {
            value, index, launch, finish in
            StepRun.start(step, index: index, input: input(value), launch: launch) { stepResult, launch in
                if case .success = stepResult {
                    ValueTrace.computed(Current.self, from: Current.self, StepOutput.self, in: launch.context)
                }
                finish(stepResult.map { merge(value, $0) }, launch)
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
        return extended(with: step.outline(conditional: false)) { value, launch, next in
            StepRun.start(step, index: index, input: input(value), launch: launch) { stepResult, launch in
                if case .success = stepResult {
                    ValueTrace.computed(Next.self, from: Current.self, StepOutput.self, in: launch.context)
                }
                launch.pass(stepResult.map { combine(value, $0) }, to: next)
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
        extended(with: nil) { value, launch, next in
            ValueTrace.computed(Next.self, from: Current.self, in: launch.context)
            launch.pass(Result { try transform(value) }, to: next)
        }
    }

    /// The chain with one more link, which gets the chain's value so far and the link after it.
    @inlinable
    func extended<Next: Sendable>(with outline: StepOutline?, _ link: @escaping Link<Next>)
        -> ScenarioBuilder<Input, Next>
    {
        extended(with: outline) { (next: ChainLink<Input, Next>) in
            { [unowned(unsafe) next] value, launch in link(value, launch, next) }
        }
    }

    /// The chain with one more link, whose body `makeBody` makes once, when the scenario is
    /// built, from the link after it: what a link needs per launch can be made there, once.
    @inlinable
    func extended<Next: Sendable>(
        with outline: StepOutline?, _ makeBody: @escaping @Sendable (ChainLink<Input, Next>) -> LinkBody
    ) -> ScenarioBuilder<Input, Next> {
        let position = makers.count + 1
        let maker: Maker = { next in
            // The makers of one chain are called in order, so `next` is always the link of the
            // maker after this one, whose value type is this link's `Next`.
            let next = unsafeDowncast(next, to: ChainLink<Input, Next>.self)
            return ChainLink<Input, Current>(position: position, step: outline?.name, body: makeBody(next))
        }
        return ScenarioBuilder<Input, Next>(
            outlines: outline.map { outlines + [$0] } ?? outlines, makers: makers + [maker])
    }

    /// A step's finish that hands its result on to `next`: its output to the next link, its
    /// failure to the scenario's end.
    @inlinable
    static func handOn<Next: Sendable>(to next: ChainLink<Input, Next>) -> StepFinish<Input, Next> {
        // The link is held by every launch (``ChainLaunch/links``), as long as anything calls this.
        { [unowned(unsafe) next] result, launch in launch.pass(result, to: next) }
    }

    /// The link of a conditional step, shared by both conditional forms of `then`: skipped,
    /// with its note, when `condition` fails for the value; otherwise run inside its `opt`
    /// frame by `start`, given the value, the step's index and the finish that hands its
    /// result on.
    private func conditional(
        _ name: String, _ outline: StepOutline, when condition: @escaping @Sendable (Current) -> Bool,
        describedAs description: String?,
        _ start: @escaping @Sendable (Current, Int, ChainLaunch<Input>, @escaping StepFinish<Input, Current>) -> Void
    ) -> ScenarioBuilder<Input, Current> {
        let index = outlines.count
        return extended(with: outline) { next in
            // Made once, with the link, not per launch (see ``then(_:)``).
            let handOn = Self.handOn(to: next)
            return { [unowned(unsafe) next] value, launch in
                guard condition(value) else {
                    return Self.skip(name, index: index, value: value, description: description, launch, next)
                }
                start(
                    value, index, launch,
                    ConditionalStepTrace.running(
                        name, description: description, context: launch.context, onFinish: handOn))
            }
        }
    }

    /// Reports and draws a conditional step that does not run, and passes the value on.
    @usableFromInline
    static func skip(
        _ name: String, index: Int, value: Current, description: String?, _ launch: ChainLaunch<Input>,
        _ next: ChainLink<Input, Current>
    ) {
        launch.run.report(.stepSkipped, address: launch.run.address(index: index, name: name), value: value)
        ConditionalStepTrace.skipped(name, description: description, context: launch.context)
        next.proceed(value, launch)
    }

    /// Builds the chain's links, ending in `end`; returns the first link and every link, which
    /// the caller keeps (links refer to their successors unowned).
    @usableFromInline
    func links(endingIn end: ChainLink<Input, Current>) -> (
        first: ChainLink<Input, Input>, all: [any AnyObject & Sendable]
    ) {
        var all: [any AnyObject & Sendable] = [end]
        all.reserveCapacity(makers.count + 1)
        var next: any AnyObject & Sendable = end
        for maker in makers.reversed() {
            next = maker(next)
            all.append(next)
        }
        return (unsafeDowncast(next, to: ChainLink<Input, Input>.self), all)
    }
}

extension ScenarioBuilder where Current == Input {
    /// The empty chain: its output is the scenario's input.
    @inlinable
    static var start: ScenarioBuilder { ScenarioBuilder(outlines: [], makers: []) }
}
