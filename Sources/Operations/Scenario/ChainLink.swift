/// One link of a built scenario: what the scenario does with the value its chain has produced
/// so far — launch a step, skip one, or convert the value.
///
/// A built chain is a flat array of links, their value types erased: a link takes the value,
/// does its work, and hands its result to the run (``ScenarioRun/pass(_:after:)``), which calls
/// the next link from its loop. No link refers to another, so launching, failing through and
/// releasing a chain of any length take constant stack depth.
struct ChainLink: Sendable {
    /// What the link does: given the chain's value so far, the run and its own position, it
    /// hands its result to `run.pass(_:after: position)`, now or later, exactly once.
    typealias Body = @Sendable (_ value: any Sendable, _ run: ScenarioRun, _ position: Int) -> Void

    /// The step this link launches (or skips), which makes it a step boundary, where a scenario
    /// built with an ``EventInbox`` takes the events waiting for it; `nil` for a link that only
    /// converts the value.
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
