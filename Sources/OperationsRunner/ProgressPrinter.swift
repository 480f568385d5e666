public import Operations

/// One line per step outcome on standard error: step, attempt, outcome, duration. Steps taken
/// from a journal say `replayed`. A nested scenario opens with a `NAME: started` line, its steps
/// indented under it, and closes with its own outcome line at its level.
///
/// A conditional step that was not needed (`PhoneOp: skipped (not needed)`) prints nothing
/// unless ``showsSkippedSteps``: printed right after a step of the same name had succeeded, it
/// read as if that step had been undone.
public struct ProgressPrinter: ScenarioObserver {
    /// Where the lines go (standard error) and whether they are coloured.
    public let console: Console
    /// Whether a conditional step that was not needed gets a `skipped (not needed)` line.
    public let showsSkippedSteps: Bool

    /// Creates a printer writing to `console`'s standard error.
    ///
    /// - Parameters:
    ///   - console: Where the lines go.
    ///   - showsSkippedSteps: Whether skipped conditional steps are printed.
    public init(console: Console, showsSkippedSteps: Bool = false) {
        self.console = console
        self.showsSkippedSteps = showsSkippedSteps
    }

    /// Prints the line of a step's outcome, and the opening line of a nested scenario; the
    /// outermost scenario's events and launches print nothing.
    public func scenario(_ event: ScenarioEvent) {
        let line: String?
        if case .scenarioStarted = event.kind, !event.address.path.isEmpty {
            line = "\(console.styled(event.step, .bold)): started"
        } else if event.isScenarioEvent {
            line = nil
        } else {
            line = self.line(for: event)
        }
        guard let line else { return }
        let indent = String(repeating: "  ", count: max(0, event.address.path.count - 1))
        console.note(indent + line)
    }

    private func line(for event: ScenarioEvent) -> String? {
        let step = console.styled((event.address.isCompensation ? "undo " : "") + event.step, .bold)
        let took = event.duration.map { " (\(Self.format($0)))" } ?? ""
        switch event.kind {
        case .stepSucceeded:
            return "\(step): attempt \(event.attempt) \(console.styled("succeeded", .green))\(took)"
        case .stepFailed(let error, let willRetry, let delay):
            let outcome = error.isCancellation ? "cancelled" : "failed"
            let retry = willRetry ? " — retrying in \(Self.format(delay ?? .zero))" : ""
            return "\(step): attempt \(event.attempt) \(console.styled(outcome, .red))\(took): \(error)\(retry)"
        case .stepSkipped:
            guard showsSkippedSteps else { return nil }
            return "\(step): \(console.styled("skipped", .dim)) (not needed)"
        case .stepReplayed:
            return "\(step): \(console.styled("replayed", .dim)) from the journal"
        case .compensationStarted:
            return "\(step): \(console.styled("failed for good", .red)) — undoing the steps before it"
        case .polling(let progress):
            guard let next = progress.nextPoll else { return nil }
            let polls = progress.polls == 1 ? "1 poll" : "\(progress.polls) polls"
            return "\(step): \(console.styled("pending", .dim)) after \(polls); next poll in \(next.describedLength)"
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
