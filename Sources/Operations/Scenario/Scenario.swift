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
    /// Every launch walks them from the first (see ``ScenarioRun``).
    private let links: [ChainLink]
    /// Where it takes events from outside at its step boundaries; `nil` when it takes none.
    private let gate: BoundaryGate?
    /// What is wrong with the scenario as built: every launch fails with it at once.
    private let definitionError: ScenarioDefinitionError?

    /// Creates a scenario called `name`, whose `build` chains the steps from its input; `version`
    /// is recorded in journals with its shape.
    public convenience init(
        _ name: String, version: Int? = nil,
        _ build: (ScenarioBuilder<Input, Input>) -> ScenarioBuilder<Input, Output>
    ) {
        self.init(name: name, version: version, chain: build(.start), gate: nil)
    }

    /// Creates a scenario that reacts to events from outside while it runs.
    ///
    /// At each step boundary — before a step launches or is skipped, and before the scenario
    /// finishes — the run takes the events waiting in `events` and hands them to `onEvent`, one
    /// at a time; it goes on when the handler says ``EventReaction/proceed``, and ends there on
    /// ``EventReaction/end(_:)``. A main scenario shows new terms the moment a push says they
    /// changed, or ends the flow when the session was signed out elsewhere, without any step
    /// reading shared state. Nested scenarios take events only if built with an inbox of their own.
    public convenience init<Event: Sendable>(
        _ name: String, version: Int? = nil, events: EventInbox<Event>, onEvent: @escaping EventHandler<Event>,
        _ build: (ScenarioBuilder<Input, Input>) -> ScenarioBuilder<Input, Output>
    ) {
        self.init(
            name: name, version: version, chain: build(.start), gate: eventGate(events, onEvent))
    }

    private init(name: String, version: Int?, chain: ScenarioBuilder<Input, Output>, gate: BoundaryGate?) {
        self.name = name
        self.version = version
        self.outlines = chain.outlines
        self.stepNames = chain.stepNames
        self.links = chain.links
        self.gate = gate
        self.definitionError = chain.outlines.lazy.compactMap(\.definitionProblem).first
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
    /// One `ScenarioRun` walks the steps; the launch's ``Completion`` delivers its end.
    public func launch(_ context: OpContext<Input>, onFinish: @escaping OnFinish<Output>) {
        let environment = context.environment
        let base = context.scope?.address ?? StepAddress(path: [])
        let startedAt = ScenarioRun.start(in: environment)
        // The end is reported from what the caller is actually given — the body's result, or the
        // cancellation or timeout that beat it — so journals and callers never disagree.
        // A scenario that is a step of another is drawn inside a group with its name, from its
        // launch through its finish; the group closes before the parent hears of the result.
        let parentTrace = context.scope == nil ? nil : context.trace
        let framed = parentTrace?.isEnabled == true
        if framed { parentTrace?.openFrame(.group, name) }
        let name = name
        let finish: OnFinish<Output> = { result in
            switch result {
            case .success(let output):
                ScenarioRun.report(
                    .scenarioSucceeded, scenario: name, in: environment, address: base, value: output, since: startedAt)
            case .failure(let error):
                ScenarioRun.report(
                    .scenarioFailed(error), scenario: name, in: environment, address: base, since: startedAt)
            }
            if framed { parentTrace?.closeFrame() }
            onFinish(result)
        }
        ScenarioRun.report(.scenarioStarted, scenario: name, in: environment, address: base, value: context.input)
        let completion = Completion(retaining: self, context: context, onFinish: finish)
        if let definitionError { return completion.fail(definitionError) }
        let run = ScenarioRun(
            name: name, context: completion.nested(context.with(input: ())), base: base, startedAt: startedAt,
            links: links, ending: completion, gate: gate)
        run.start(with: context.input)
    }
}
