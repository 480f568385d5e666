public import Operations

/// One line per step outcome on standard error: step, attempt, outcome, duration. Steps taken
/// from a journal say `replayed`. Nested steps are indented under their scenario.
public struct ProgressPrinter: ScenarioObserver {
    /// Where the lines go (standard error) and whether they are coloured.
    public let console: Console

    /// Creates a printer writing to `console`'s standard error.
    public init(console: Console) {
        self.console = console
    }

    /// Prints the line of a step's outcome; scenario events and launches print nothing.
    public func scenario(_ event: ScenarioEvent) {
        guard !event.isScenarioEvent, let line = line(for: event) else { return }
        let indent = String(repeating: "  ", count: max(0, event.address.path.count - 1))
        console.note(indent + line)
    }

    private func line(for event: ScenarioEvent) -> String? {
        let step = console.styled(event.step, .bold)
        let took = event.duration.map { " (\(Self.format($0)))" } ?? ""
        switch event.kind {
        case .stepSucceeded:
            return "\(step): attempt \(event.attempt) \(console.styled("succeeded", .green))\(took)"
        case .stepFailed(let error, let willRetry, let delay):
            let outcome = error.isCancellation ? "cancelled" : "failed"
            let retry = willRetry ? " — retrying in \(Self.format(delay ?? .zero))" : ""
            return "\(step): attempt \(event.attempt) \(console.styled(outcome, .red))\(took): \(error)\(retry)"
        case .stepSkipped:
            return "\(step): \(console.styled("skipped", .dim)) (not needed)"
        case .stepReplayed:
            return "\(step): \(console.styled("replayed", .dim)) from the journal"
        case .stepLaunched, .scenarioStarted, .scenarioSucceeded, .scenarioFailed:
            return nil
        }
    }

    /// `12 ms`, `1.2 s`.
    public static func format(_ duration: Duration) -> String {
        let milliseconds = duration.inMilliseconds
        if milliseconds < 1_000 { return "\(Int(milliseconds.rounded())) ms" }
        return "\((milliseconds / 100).rounded() / 10) s"
    }
}
