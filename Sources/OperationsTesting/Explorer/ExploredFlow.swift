public import Operations

/// What the explorer runs under every fault schedule: a scenario built over services that
/// consult a ``FaultWorld`` at each request, the input to launch it with, and the secrets that
/// must never reach the journal in clear.
///
/// A flow is made anew for every schedule (fresh simulated services, so effects are counted
/// per schedule); the same scenario value stands for every process of that schedule, as a
/// program rebuilt from the same factory would.
public struct ExploredFlow<Input: Sendable, Output: Sendable>: Sendable {
    /// The scenario under test.
    public let scenario: Scenario<Input, Output>
    /// The run's input.
    public let input: Input
    /// Values (tokens, codes, keys) that must not appear in clear in the journal's bytes.
    public let secrets: [String]

    /// Creates a flow.
    ///
    /// - Parameters:
    ///   - scenario: The scenario, its services built over the world's adapters.
    ///   - input: What every session launches it with (a rerun reads it from the journal).
    ///   - secrets: Clear values the journal must never hold.
    public init(scenario: Scenario<Input, Output>, input: Input, secrets: [String] = []) {
        self.scenario = scenario
        self.input = input
        self.secrets = secrets
    }
}
