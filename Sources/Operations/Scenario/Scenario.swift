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
public final class Scenario<Input: Sendable, Output: Sendable>: NamedOp {
    /// The scenario's name, shown in progress, journals and diagrams.
    public let name: String
    /// The names of its steps, in order (skippable steps included).
    public let stepNames: [String]
    private let body: ScenarioBuilder<Input, Output>.Body

    /// Creates a scenario.
    ///
    /// - Parameters:
    ///   - name: The scenario's name.
    ///   - build: Chains the steps, starting from the scenario's input.
    public init(
        _ name: String,
        _ build: (ScenarioBuilder<Input, Input>) -> ScenarioBuilder<Input, Output>
    ) {
        let chain = build(.start)
        self.name = name
        self.stepNames = chain.stepNames
        self.body = chain.body
    }

    /// Launches the operation: records its messages when tracing is on and finishes exactly once.
    public func launch(_ context: OpContext<Input>, onFinish: @escaping OnFinish<Output>) {
        let run = ScenarioRun(name: name, context: context)
        // The end is reported from what the caller is actually given — the body's result, or the
        // cancellation or timeout that beat it — so journals and callers never disagree.
        let finish: OnFinish<Output>
        if context.environment.observer == nil {
            finish = onFinish
        } else {
            finish = { result in
                switch result {
                case .success(let output):
                    run.report(.scenarioSucceeded, address: run.base, value: output, since: run.startedAt)
                case .failure(let error):
                    run.report(.scenarioFailed(error), address: run.base, since: run.startedAt)
                }
                onFinish(result)
            }
        }
        run.report(.scenarioStarted, address: run.base, value: context.input)
        let completion = Completion(retaining: self, context: context, onFinish: finish)
        body(completion.nested(context), run) { result in completion.finish(result) }
    }
}
