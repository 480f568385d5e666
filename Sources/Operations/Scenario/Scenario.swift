/// A use case implemented by chaining operations: each step's output is the next step's launch
/// input, and nothing moves between steps through shared state.
///
/// A scenario is itself an operation — launched with a context, finished exactly once — so a
/// main scenario runs secondary ones as steps and reacts only to their results.
///
/// ```swift
/// let auth = Scenario<PhoneNumber?, AuthToken>("AuthScenario") { chain in
///     chain
///         .then(Step(factory.makePhoneOp).retrying(.transient()))
///         .then(Step(factory.makeTermsOfUseOp), when: \.termsRequired, input: \.phoneToken) {
///             attempt, acceptance in attempt.accepting(acceptance)
///         }
///         .map { CodeRequest(attempt: $0) }
///         .then(Step(factory.makeCodeOp).onFailure(askAgainForCode))
///         .then(Step(factory.makeSaveTokenOp))
/// }
/// ```
///
/// Every launch is independent: the scenario keeps no state between launches, so one value can
/// be launched many times, concurrently too.
public final class Scenario<Input: Sendable, Output: Sendable>: NamedOp, ScenarioShapeProviding {
    /// The scenario's name, shown in progress, journals and diagrams.
    public let name: String
    /// The names of its steps, in order (skippable steps included).
    public let stepNames: [String]
    /// The version its author gives it, recorded in journals with its shape.
    public let version: Int?
    private let outlines: [StepOutline]
    /// The chain's first link; a launch walks from it to the end.
    @usableFromInline let first: ChainLink<Input, Input>
    /// Every link of the chain: they refer to one another unowned, so they live here and in
    /// each launch (``ChainLaunch/links``).
    @usableFromInline let links: [any AnyObject & Sendable]
    /// Where it takes events from outside at its step boundaries; `nil` when it takes none.
    @usableFromInline let gate: (any BoundaryGate)?

    /// Creates a scenario.
    ///
    /// - Parameters:
    ///   - name: The scenario's name.
    ///   - version: The author's version of the scenario, recorded in journals with its shape;
    ///     `nil` when the author does not version it.
    ///   - build: Chains the steps, starting from the scenario's input.
    public init(
        _ name: String, version: Int? = nil,
        _ build: (ScenarioBuilder<Input, Input>) -> ScenarioBuilder<Input, Output>
    ) {
        let chain = build(.start)
        self.name = name
        self.version = version
        self.outlines = chain.outlines
        self.stepNames = chain.stepNames
        let end = ChainLink<Input, Output>(position: 0) { output, launch in
            // The end link is only ever given a launch this scenario made, with its completion.
            unsafeDowncast(launch.completion, to: Completion<Output>.self).succeed(output)
        }
        (first, links) = chain.links(endingIn: end)
        gate = nil
    }

    /// Creates a scenario that reacts to events from outside while it runs.
    ///
    /// At each step boundary — before a step launches or is skipped, and before the scenario
    /// finishes — the run takes the events waiting in `events` and hands them to `onEvent`, one
    /// at a time; it goes on when the handler says ``EventReaction/proceed``, and ends there on
    /// ``EventReaction/end(_:)``. A main scenario shows new terms the moment a push says they
    /// changed, or ends the flow when the session was signed out elsewhere, without any step
    /// reading shared state. Nested scenarios take events only if built with an inbox of their own.
    ///
    /// - Parameters:
    ///   - name: The scenario's name.
    ///   - version: The author's version of the scenario, recorded in journals with its shape.
    ///   - events: Where the app posts the events.
    ///   - onEvent: Reacts to each event at a boundary.
    ///   - build: Chains the steps, starting from the scenario's input.
    public init<Event: Sendable>(
        _ name: String, version: Int? = nil, events: EventInbox<Event>, onEvent: @escaping EventHandler<Event>,
        _ build: (ScenarioBuilder<Input, Input>) -> ScenarioBuilder<Input, Output>
    ) {
        let plain = Scenario(name, version: version, build)
        self.name = name
        self.version = version
        self.outlines = plain.outlines
        self.stepNames = plain.stepNames
        self.first = plain.first
        self.links = plain.links
        self.gate = EventGate(inbox: events, handler: onEvent)
    }

    /// The scenario's steps in order, with their types, purity and nested scenarios.
    ///
    /// Computed when asked for, never on launch: a nested scenario's shape is taken from one
    /// operation its step's factory makes (and releases without launching).
    public var shape: ScenarioShape {
        ScenarioShape(
            name: name, version: version,
            steps: outlines.enumerated().map { index, outline in outline.shape(index: index) })
    }

    /// Launches the operation: records its messages when tracing is on and finishes exactly once.
    ///
    /// Inlinable so that a caller who knows the scenario's types (awaiting it, launching it from
    /// a test or an app) gets a launch specialised to them, which looks up no generic metadata.
    @inlinable
    public func launch(_ context: OpContext<Input>, onFinish: @escaping OnFinish<Output>) {
        let run = ScenarioRun(name: name, scope: context.scope, environment: context.environment)
        // The end is reported from what the caller is actually given — the body's result, or the
        // cancellation or timeout that beat it — so journals and callers never disagree.
        // A scenario that is a step of another is drawn inside a group with its name, from its
        // launch through its finish; the group closes before the parent hears of the result.
        let parentTrace = context.scope == nil ? nil : context.trace
        let delivered: OnFinish<Output>
        if let parentTrace, parentTrace.isEnabled {
            parentTrace.openFrame(.group, name)
            delivered = { result in
                parentTrace.closeFrame()
                onFinish(result)
            }
        } else {
            delivered = onFinish
        }
        let finish: OnFinish<Output>
        if !context.environment.isObserved {
            finish = delivered
        } else {
            finish = { result in
                switch result {
                case .success(let output):
                    run.report(.scenarioSucceeded, address: run.base, value: output, since: run.startedAt)
                case .failure(let error):
                    run.report(.scenarioFailed(error), address: run.base, since: run.startedAt)
                }
                delivered(result)
            }
        }
        if run.isObserved { run.report(.scenarioStarted, address: run.base, value: context.input) }
        let completion = Completion(retaining: self, context: context, onFinish: finish)
        let launch = ChainLaunch(
            context: completion.nested(context), run: run, links: links, completion: completion, gate: gate)
        first.proceed(context.input, launch)
    }
}
