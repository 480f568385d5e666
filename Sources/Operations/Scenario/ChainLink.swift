/// One link of a built scenario: what the scenario does with the value its chain has produced
/// so far — launch a step, skip one, convert the value, or finish.
///
/// A built chain is flat: each link knows the next one, and a launch walks them one by one.
/// Nothing nests per link — no closure wrapping its predecessor, no continuation wrapping its
/// successor — so launching, failing through and releasing a chain of any length take constant
/// stack depth. The links hold their successors `unowned(unsafe)`; the strong references live in
/// ``ChainLaunch/links`` (and in the scenario), which every launch keeps until its last callback.
@usableFromInline
final class ChainLink<Input: Sendable, Value: Sendable>: Sendable {
    @usableFromInline typealias Body = @Sendable (Value, ChainLaunch<Input>) -> Void

    @usableFromInline let body: Body
    /// Whether this link goes through the run's loop (``ScenarioRun/handOff(_:)``) rather than
    /// being called from the link before it: every ``ScenarioRun/handOffInterval``-th link does,
    /// which unwinds the frames of a run of operations that finish inside their own launch.
    @usableFromInline let handsOff: Bool
    /// Whether this link is a step boundary — it launches (or skips) a step, or it is the end —
    /// where a scenario built with an ``EventInbox`` takes the events waiting for it.
    @usableFromInline let isBoundary: Bool
    /// The step this link launches; `nil` at the end and for links that only convert the value.
    @usableFromInline let nextStep: String?

    /// Creates a link; `step` names the step it launches, if it launches one.
    @usableFromInline
    init(position: Int, step: String? = nil, body: @escaping Body) {
        self.body = body
        // Position 0 is the end, which finishes the launch and never needs a fresh stack.
        self.handsOff = position > 0 && position % ScenarioRun.handOffInterval == 0
        self.isBoundary = position == 0 || step != nil
        self.nextStep = step
    }

    /// Runs this link with the chain's value so far, after the events waiting at a boundary.
    @inlinable
    func proceed(_ value: Value, _ launch: ChainLaunch<Input>) {
        if isBoundary, let gate = launch.gate {
            gate.pass(before: nextStep, in: launch) { self.go(value, launch) }
            return
        }
        go(value, launch)
    }

    @inlinable
    func go(_ value: Value, _ launch: ChainLaunch<Input>) {
        if handsOff {
            launch.run.handOff { self.body(value, launch) }
        } else {
            body(value, launch)
        }
    }
}

/// What the links of one launch of a scenario share: its context, its run, the links themselves
/// and where the outcome goes.
///
/// It is the launch's ``ScenarioRun`` too, so that a launch allocates one object for both, and a
/// step holds one reference for its scenario's context and its run.
@usableFromInline
final class ChainLaunch<Input: Sendable>: ScenarioRun, @unchecked Sendable {
    /// The scenario's context, as its steps are launched with it.
    @inlinable var context: OpContext<Input> {
        OpContext(input: input, storedEnvironment: storedEnvironment, extras: extras)
    }
    // The context's parts: a field of type `OpContext<Input>` would make the (unspecialised)
    // deinitializer look up that type's metadata on every launch.
    @usableFromInline let input: Input
    /// The context's environment as it stores it (`nil` for the default one).
    @usableFromInline let storedEnvironment: OpEnvironment?
    @usableFromInline let extras: ContextExtras?
    /// The launch as its steps and the event gate know it: the run they report to.
    @inlinable var run: ScenarioRun { self }
    /// Keeps every link alive for as long as anything of this launch may still call one: an
    /// operation may finish after the scenario has (cancelled, timed out) and its caller gone.
    @usableFromInline let links: [any AnyObject & Sendable]
    /// The scenario's completion: a failure ends the launch from wherever it happens, without
    /// passing through the links after it.
    @usableFromInline let completion: any ScenarioEnding
    /// Where the scenario takes events from outside at its step boundaries, if it does.
    @usableFromInline let gate: (any BoundaryGate)?

    /// Creates the launch of scenario `name` with `context`, at `base`, observed since
    /// `startedAt` (see ``ScenarioRun``).
    @inlinable
    init(
        name: String, context: OpContext<Input>, base: StepAddress, startedAt: FrozenInstant?,
        links: [any AnyObject & Sendable], completion: any ScenarioEnding, gate: (any BoundaryGate)? = nil
    ) {
        self.input = context.input
        self.storedEnvironment = context.storedEnvironment
        self.extras = context.extras
        self.links = links
        self.completion = completion
        self.gate = gate
        super.init(
            name: name, base: base, startedAt: startedAt,
            environment: OpEnvironment.resolved(context.storedEnvironment))
    }

    /// The scenario's context for what an event handler launches: its trace, cancellation and
    /// services, but neither its observer nor its replay nor its place in the run — the
    /// reaction is not a step, so it must not be journaled (or replayed) as one.
    var boundaryContext: OpContext<Void> {
        var context = OpContext(
            input: (), environment: OpEnvironment.resolved(storedEnvironment).with(observer: nil, replay: nil),
            extras: extras)
        context.scope = nil
        // The scenario's own key belongs to its requests as a step; a reaction is none of them.
        context.idempotencyKey = nil
        return context
    }

    /// Hands a step's result on: its output to `next`, its failure to the scenario's end.
    @inlinable
    func pass<Value>(_ result: Result<Value, any Error>, to next: ChainLink<Input, Value>) {
        switch result {
        case .success(let value): next.proceed(value, self)
        case .failure(let error): completion.fail(error)
        }
    }
}

/// How a chain ends a launch that failed, whatever the scenario's output type.
@usableFromInline
protocol ScenarioEnding: AnyObject, Sendable {
    func fail(_ error: any Error)
    /// Whether the launch has delivered its result (or was cancelled or timed out).
    var isFinished: Bool { get }
}

extension Completion: ScenarioEnding {}
