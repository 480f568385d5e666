public import Operations

/// Records a scenario's step events as readable lines, so a test can compare the whole
/// sequence at once: `["PhoneOp launched #1", "PhoneOp failed #1, retry in 0s", …]`.
public final class ScenarioRecorder: ScenarioObserver {
    private let recorded = LockedState<[ScenarioEvent]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Receives one scenario event, in the order events happen within a run.
    public func scenario(_ event: ScenarioEvent) {
        recorded.withLock { $0.append(event) }
    }

    /// The events so far, in order.
    public var events: [ScenarioEvent] { recorded.withLock { $0 } }

    /// The events so far as one line each.
    public var lines: [String] { events.map(Self.line) }

    /// The step events only (no scenario start or finish) as one line each.
    public var stepLines: [String] {
        events.filter { !$0.isScenarioEvent }.map(Self.line)
    }

    static func line(_ event: ScenarioEvent) -> String {
        let step = event.step
        switch event.kind {
        case .scenarioStarted: return "\(event.scenario) started"
        case .scenarioSucceeded: return "\(event.scenario) succeeded"
        case .scenarioFailed(let error): return "\(event.scenario) failed: \(error)"
        case .stepLaunched: return "\(step) launched #\(event.attempt)"
        case .stepSucceeded: return "\(step) succeeded #\(event.attempt)"
        case .stepFailed(let error, let willRetry, let delay):
            let retry = willRetry ? ", retry in \(delay ?? .zero)" : ""
            return "\(step) failed #\(event.attempt)\(retry): \(error)"
        case .stepSkipped: return "\(step) skipped"
        case .stepReplayed: return "\(step) replayed"
        case .compensationStarted(let error): return "\(step) failed for good, undoing: \(error)"
        case .eventHandled(let handled):
            let launched = handled.launched.map { " \($0.path.joined(separator: "/")) \($0.outcome)" }.joined()
            return "\(event.scenario) event \(handled.event) \(handled.boundary): \(handled.reaction)\(launched)"
        case .polling(let progress):
            guard let next = progress.nextPoll else { return "\(step) polling" }
            return "\(step) pending after \(progress.polls), next poll in \(next.describedLength)"
        }
    }
}
