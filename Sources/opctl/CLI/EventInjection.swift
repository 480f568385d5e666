import AuthFlow
import AuthSimulator
import Operations
import OperationsRunner

/// `--event NAME[@STEP]`: an event from outside posted into a running `opctl run app`, for
/// trying (and testing) how the main scenario reacts — `terms-changed@CodeOp` posts
/// `terms-changed` when CodeOp launches, wherever it is nested; without `@STEP`, before the
/// first step. On the simulator, the backend does first what the push reports: `terms-changed`
/// publishes the next terms version, `signed-out-elsewhere` revokes the saved session.
struct EventInjection: Sendable, Equatable {
    let event: AppEvent
    /// The step whose launch posts it; `nil`: posted before the run starts.
    let step: String?

    static let option = CommandOption(
        "--event", value: "NAME[@STEP]",
        "app only: post an event from outside when STEP launches (or\nbefore the first step): "
            + "terms-changed or signed-out-elsewhere")

    /// Parses `NAME[@STEP]`.
    ///
    /// - Throws: ``UsageError`` naming the events there are.
    init(parsing text: String, command: String) throws {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let names = AppEvent.allCases.map(\.rawValue).joined(separator: ", ")
        guard let event = AppEvent(rawValue: parts[0]) else {
            throw UsageError(
                "--event: unknown event '\(ParsedArguments.clip(parts[0]))' (events: \(names))", command: command)
        }
        guard parts.count == 1 || !parts[1].isEmpty else {
            throw UsageError("--event: '\(ParsedArguments.clip(text))' names no step after '@'", command: command)
        }
        self.event = event
        self.step = parts.count == 2 ? parts[1] : nil
    }

    /// Checks that the step exists at some depth of `shape`: a misspelt one would never launch,
    /// and the event would silently never be posted.
    ///
    /// - Throws: ``UsageError`` naming the steps there are.
    func validate(against shape: ScenarioShape, command: String) throws {
        guard let step else { return }
        let names = Self.stepNames(of: shape)
        guard names.contains(step) else {
            throw UsageError(
                "--event: no step '\(ParsedArguments.clip(step))' in \(shape.name) "
                    + "(its steps: \(names.joined(separator: ", ")))",
                command: command)
        }
    }

    private static func stepNames(of shape: ScenarioShape) -> [String] {
        shape.steps.reduce(into: [String]()) { names, step in
            for name in [step.name] + (step.nested.map(stepNames) ?? []) where !names.contains(name) {
                names.append(name)
            }
        }
    }

    /// The context `context` with an observer that posts the event once, when the step
    /// launches; everything else of the run's environment is kept.
    func injecting<Input>(into context: OpContext<Input>, factory: AuthFlowFactory, services: SignInServices)
        -> OpContext<Input>
    {
        let post: @Sendable () -> Void = {
            switch event {
            case .termsChanged: services.simulator?.publishNextTerms()
            case .signedOutElsewhere:
                if let token = (try? services.storage.loadAuthToken()) ?? nil { services.simulator?.revoke(token) }
            }
            services.console.note(
                services.console.styled("event \(event) posted" + (step.map { " as \($0) launched" } ?? ""), .dim))
            factory.events.post(event)
        }
        guard let step else {
            post()
            return context
        }
        let environment = context.environment
        let posting = PostingObserver(step: step, post: post)
        let observer = ObserverGroup([posting] + (environment.observer.map { [$0] } ?? []))
        var injected = context
        injected.environment = environment.with(observer: observer, replay: environment.replay)
        return injected
    }
}

/// Posts once, when the step launches; grouped in front of the run's own observer.
private struct PostingObserver: ScenarioObserver {
    let step: String
    let post: @Sendable () -> Void
    let posted = OnceFlag()

    func scenario(_ event: ScenarioEvent) {
        if case .stepLaunched = event.kind, event.address.path.last?.name == step, posted.claim() { post() }
    }
}
