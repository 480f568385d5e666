/// One thing a runner program can run, as the generic commands list it: `ops` prints it and
/// `runs` names the first one to a new user.
public struct ScenarioListing: Sendable {
    /// The name on the command line and in the journal.
    public let name: String
    /// One line for `ops`.
    public let summary: String
    /// Whether it is a scenario (chains operations) rather than a single operation.
    public let isScenario: Bool

    /// Creates a listing from its parts, each as its property says.
    public init(name: String, summary: String, isScenario: Bool) {
        self.name = name
        self.summary = summary
        self.isScenario = isScenario
    }
}
