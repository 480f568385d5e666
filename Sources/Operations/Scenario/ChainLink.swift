/// One link of a built scenario, its value type erased: launch a step, skip one, or convert the
/// value. A link hands its result to the run (``ScenarioRun/pass(_:after:)``) and refers to no
/// other, so a chain of any length takes constant stack depth.
struct ChainLink: Sendable {
    typealias Body = @Sendable (_ value: any Sendable, _ run: ScenarioRun, _ position: Int) -> Void

    /// The step this link launches or skips: a boundary for an ``EventInbox``'s events.
    let step: String?
    let body: Body
}

/// How a run ends its launch, whatever the scenario's output type: its ``Completion``.
protocol ScenarioEnding: AnyObject, Sendable {
    /// Delivers the chain's last value, which is of the scenario's output type.
    func succeed(erased value: any Sendable)
    func fail(_ error: any Error)
    /// Whether the launch has delivered its result (or was cancelled or timed out).
    var isFinished: Bool { get }
}

extension Completion: ScenarioEnding {
    func succeed(erased value: any Sendable) {
        // The chain is built by `ScenarioBuilder`, whose types end in the scenario's output.
        guard let output = value as? Output else {
            preconditionFailure("a scenario's chain ended in \(type(of: value)), not \(Output.self)")
        }
        succeed(output)
    }
}
