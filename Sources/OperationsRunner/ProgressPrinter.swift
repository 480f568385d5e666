import Operations
import OperationsJournal
import Synchronization

/// One line per step outcome on standard error: step, attempt, outcome, duration. Steps taken
/// from a journal say `replayed`. A launch is labelled as `RunHistory` labels it from the
/// journal (`attempt 2`, a polled step's `poll 3`), so the progress and `show` number alike. A
/// nested scenario opens with a `NAME: started` line, its steps indented under it, and closes
/// with its own outcome line at its level.
///
/// A conditional step that was not needed (`PhoneOp: skipped (not needed)`) prints nothing
/// unless ``showsSkippedSteps``: printed right after a step of the same name had succeeded, it
/// read as if that step had been undone.
struct ProgressPrinter: ScenarioObserver {
    /// Where the lines go (standard error) and whether they are coloured.
    let console: Console
    /// Whether a conditional step that was not needed gets a `skipped (not needed)` line.
    let showsSkippedSteps: Bool
    /// The label of each step's launch in flight, and how to label its next one.
    private let labels: Labels

    /// A printer whose attempt numbers follow those of `resumed`, the run's history before
    /// this session, as the history numbers them (``RunHistory/Attempt/Labeler/earlierAttempts``).
    init(console: Console, showsSkippedSteps: Bool = false, resumed: RunHistory? = nil) {
        self.console = console
        self.showsSkippedSteps = showsSkippedSteps
        let steps = resumed?.steps ?? []
        labels = Labels(earlierAttempts: Dictionary(steps.map { ($0.address, $0.attempts.count) }, uniquingKeysWith: +))
    }

    /// Prints the line of a step's outcome, and the opening line of a nested scenario; the
    /// outermost scenario's events and launches print nothing.
    func scenario(_ event: ScenarioEvent) {
        let line: String?
        if case .scenarioStarted = event.kind, !event.address.path.isEmpty {
            line = "\(console.styled(event.step, .bold)): started"
        } else if case .eventHandled(let handled) = event.kind {
            // The lines `show` prints for it, at the level of the scenario's steps.
            let indent = String(repeating: "  ", count: event.address.path.count)
            for text in HistoryText.lines(of: handled) {
                console.note(indent + text)
            }
            return
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
        let took = event.duration.map { " (\(HistoryText.format($0)))" } ?? ""
        switch event.kind {
        case .stepSucceeded:
            let label = labels.finished(event)
            return "\(step): \(label) \(console.styled("succeeded", .green))\(took)"
        case .stepFailed(let error, let willRetry, let delay):
            let label = labels.finished(event)
            let outcome = error.isCancellation ? "cancelled" : "failed"
            let retry = willRetry ? " — retrying in \(HistoryText.format(delay ?? .zero))" : ""
            return "\(step): \(label) \(console.styled(outcome, .red))\(took): \(error)\(retry)"
        case .stepSkipped:
            guard showsSkippedSteps else { return nil }
            return "\(step): \(console.styled("skipped", .dim)) (not needed)"
        case .stepReplayed:
            return "\(step): \(console.styled("replayed", .dim)) from the journal"
        case .compensationStarted:
            return "\(step): \(console.styled("failed for good", .red)) — undoing the steps before it"
        case .polling(let progress):
            labels.polled(event.address, after: progress.polls)
            guard let next = progress.nextPoll else { return nil }
            let polls = progress.polls == 1 ? "1 poll" : "\(progress.polls) polls"
            return "\(step): \(console.styled("pending", .dim)) after \(polls); next poll in \(next.describedLength)"
        case .stepLaunched:
            labels.launched(event)
            return nil
        case .scenarioStarted, .scenarioSucceeded, .scenarioFailed, .eventHandled:
            return nil
        }
    }
}

extension ProgressPrinter {
    /// The labels of the steps' launches, kept across the events of one run.
    private final class Labels: Sendable {
        private struct Step {
            var labeler: RunHistory.Attempt.Labeler
            var current: RunHistory.Attempt.Label?
        }
        private let steps = Mutex<[StepAddress: Step]>([:])
        private let earlierAttempts: [StepAddress: Int]

        init(earlierAttempts: [StepAddress: Int]) { self.earlierAttempts = earlierAttempts }

        func polled(_ address: StepAddress, after polls: Int) {
            steps.withLock { steps in
                var step = steps[address] ?? Step(labeler: .init(polled: true))
                step.labeler.polled(after: polls)
                steps[address] = step
            }
        }

        func launched(_ event: ScenarioEvent) {
            steps.withLock { steps in
                var step =
                    steps[event.address]
                    ?? Step(labeler: .init(polled: false, earlierAttempts: earlierAttempts[event.address] ?? 0))
                step.current = step.labeler.label(forAttempt: event.attempt)
                steps[event.address] = step
            }
        }

        /// The label of the launch that finished; a finish without a launch this printer saw
        /// (a failure handler's recovery) is labelled by its attempt.
        func finished(_ event: ScenarioEvent) -> RunHistory.Attempt.Label {
            steps.withLock { $0[event.address]?.current } ?? .attempt(event.attempt)
        }
    }
}
