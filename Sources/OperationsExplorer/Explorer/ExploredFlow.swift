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
    /// Whether a session's result is where the run ends once the faults are over: a success,
    /// unless the flow is one that must fail (a card declined for good, undone by its
    /// compensations). A session that ends otherwise is rerun. After one that ends here with a
    /// failure, the explorer goes on rerunning the run while `check` offers a rerun (twice at
    /// most), and a rerun `check` does not offer must be refused.
    public let finishedWhen: @Sendable (Result<Output, any Error>) -> Bool
    /// What must hold of the flow's services once the run is over, as a problem in words, or
    /// `nil` when it holds (no stock left reserved after an undone checkout, say).
    public let finalCheck: @Sendable () -> String?

    /// Creates a flow.
    ///
    /// - Parameters:
    ///   - scenario: The scenario, its services built over the world's adapters.
    ///   - input: What every session launches it with (a rerun reads it from the journal).
    ///   - secrets: Clear values the journal must never hold.
    ///   - finishedWhen: Whether a session's result ends the run; a success by default.
    ///   - finalCheck: What must hold of the services once the run is over; nothing by default.
    public init(
        scenario: Scenario<Input, Output>, input: Input, secrets: [String] = [],
        finishedWhen: @escaping @Sendable (Result<Output, any Error>) -> Bool = {
            if case .success = $0 { true } else { false }
        },
        finalCheck: @escaping @Sendable () -> String? = { nil }
    ) {
        self.scenario = scenario
        self.input = input
        self.secrets = secrets
        self.finishedWhen = finishedWhen
        self.finalCheck = finalCheck
    }
}
