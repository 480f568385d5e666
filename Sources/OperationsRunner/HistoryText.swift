import Foundation
import Operations
import OperationsJournal

/// A run's history (``RunHistory``) in the words `show`, `show --follow` and the progress lines
/// share: one line per step and one per launch of it, each under a key that stays the same
/// while the run goes on, so a follower prints a line again only when what it says changed.
struct HistoryText {
    /// One line of the text, and what it is about.
    struct Line: Hashable {
        /// The step, and the launch's index among the step's launches (`nil` for the step's own
        /// line, and for a polled step's pending line, `-1`).
        let key: Key
        let text: String

        struct Key: Hashable {
            let step: StepAddress
            let launch: Int?
        }
    }

    let history: RunHistory
    /// Whether a running step's line says how long it has been running: not for a follower,
    /// whose lines are printed again only when what they say changes.
    var showsElapsed = true

    /// The step lines, in the order the run reached the steps, each followed by its launches.
    var lines: [Line] {
        history.steps.flatMap(lines(of:))
    }

    /// The lines of the events the run handled, after its steps: each event, where it was taken
    /// and how the scenario reacted, then what the reaction launched.
    var eventLines: [String] {
        history.events.flatMap { record in
            let session = history.sessions > 1 ? " (session \(record.session))" : ""
            let indent = String(repeating: "  ", count: record.scenario.path.count + 1)
            return Self.lines(of: record.event, session: session).map { indent + $0 }
        }
    }

    /// An event and its reaction's launches in the words progress and `show` share:
    /// `event terms-changed at the end: went on, launching TermsOfUseOp`, then one line per
    /// launch, indented by its depth in the reaction; `session` (` (session 2)`) follows the
    /// boundary in a run of several sessions.
    static func lines(of handled: HandledEvent, session: String = "") -> [String] {
        let launched = handled.launched.first.map { ", launching \($0.path.joined(separator: "/"))" } ?? ""
        var lines = ["event \(handled.event) \(handled.boundary)\(session): \(handled.reaction)\(launched)"]
        for launch in handled.launched {
            let indent = String(repeating: "  ", count: launch.path.count)
            let attempts = launch.attempts > 1 ? " after \(launch.attempts) attempts" : ""
            let result =
                switch launch.outcome {
                case .succeeded: "succeeded\(attempts)" + (launch.output.map { ": \($0)" } ?? "")
                case .failed: "failed\(attempts)" + (launch.error.map { ": \($0)" } ?? "")
                case .skipped: "skipped (its condition did not hold)"
                case .unfinished: "not finished when the reaction came"
                }
            lines.append("\(indent)\(launch.path.last ?? ""): \(result)")
        }
        return lines
    }

    /// `Run ID · SCENARIO · STATUS`: the first line of `show`, and the last of a follow.
    var headline: String { "Run \(history.runID) · \(history.scenario) · \(history.status)" }

    /// The lines `show` prints between the headline and the steps, and the web view's run page
    /// shows there: when the run started and in how many sessions, the run it is a rerun of
    /// and `reruns` (``RunLinks``' text of the runs made from it), where a live run is, its error.
    func overview(reruns: String?) -> [String] {
        var lines = [
            "Started \(RunTimestamp.text(history.startedAt))"
                + (history.sessions > 1 ? " · \(history.sessions) sessions (resumed)" : "")
        ]
        if let origin = history.rerunOf {
            lines.append("This run is a \(RunLinks.text(origin)): the steps before it were replayed")
        }
        if let reruns { lines.append("This run was \(reruns)") }
        if history.status == .running {
            lines.append("Running: " + (history.current.map(Self.at) ?? "starting"))
        }
        if let error = history.error { lines.append("Error: \(error)") }
        return lines
    }

    private func lines(of step: RunHistory.Step) -> [Line] {
        let indent = String(repeating: "  ", count: step.level)
        let name = step.undoes.map { "\(step.name) (undoes \($0))" } ?? step.name
        var result = [Line(key: .init(step: step.address, launch: nil), text: "\(indent)\(name): \(state(of: step))")]
        for (index, attempt) in step.attempts.enumerated() {
            let took = attempt.duration.map { " (\(Self.format($0)))" } ?? ""
            let session = history.sessions > 1 ? " (session \(attempt.session))" : ""
            result.append(
                Line(
                    key: .init(step: step.address, launch: index),
                    text: "\(indent)  \(attempt.label)\(session): \(Self.outcome(attempt.outcome))\(took)"))
        }
        if let next = step.polls?.nextPoll, let polls = step.polls, history.status != .succeeded {
            let count = polls.polls == 1 ? "1 poll" : "\(polls.polls) polls"
            result.append(
                Line(
                    key: .init(step: step.address, launch: -1),
                    text:
                        "\(indent)  pending after \(count); next poll \(RunTimestamp.text(next.until)) "
                        + "(a rerun waits only what is left)"))
        }
        return result
    }

    /// What the step's own line says after its name.
    private func state(of step: RunHistory.Step) -> String {
        switch step.outcome {
        case .replayed:
            let sessions = step.replayedInSessions.map(String.init).joined(separator: ", ")
            let which = history.sessions > 1 && !sessions.isEmpty ? " in session \(sessions)" : ""
            return "replayed from the journal\(which), not sent again"
        case .skipped:
            return "skipped (its condition did not hold)"
        case .running:
            if showsElapsed, let current = history.current, current.step == step.address {
                return "running (for \(Self.format(current.elapsed)))"
            }
            return "running"
        default:
            let undone = history.undone.contains(step.address) ? " — undone" : ""
            let doubt =
                step.isInDoubt
                ? " — in doubt: it may have acted; a rerun repeats it with the same idempotency key"
                    + (step.keyInDoubt.map { " (\($0.redacted))" } ?? "") : ""
            return "\(step.outcome)\(undone)\(doubt)"
        }
    }

    /// How an attempt ended, in the words of `show`: `succeeded`, `failed: …` (and
    /// `(retried)`), `cancelled: …`, `interrupted`, `running`.
    static func outcome(_ outcome: AttemptRecord.Outcome) -> String {
        switch outcome {
        case .succeeded: "succeeded"
        case .failed(let error, let willRetry):
            (error.isCancellation ? "cancelled: \(error)" : "failed: \(error)") + (willRetry ? " (retried)" : "")
        case .interrupted: "interrupted"
        case .running: "running"
        }
    }

    /// A step by the names of its path, `VerificationScenario/CodeOp`, as `rerun --from` takes it.
    static func path(_ address: StepAddress) -> String {
        address.path.map(\.name).joined(separator: "/")
    }

    /// Where a live run is, `at VerificationScenario/CodeOp for 12 s`: as `show`, `runs` and the
    /// drawing of a running run say it.
    static func at(_ current: RunHistory.Current) -> String {
        "at \(path(current.step)) for \(format(current.elapsed))"
    }

    /// A run's step in a listing (`runs`, the web view's runs page): the failed step of a run
    /// that failed; for a live run, the step it is at and for how long, as `show` says it
    /// (`at CodeOp for 12 s`), so it does not read as a failure.
    static func listedStep(_ summary: RunSummary, current: RunHistory.Current?) -> String {
        summary.status != .running
            ? summary.failedStep?.name ?? "-"
            : current.map(at) ?? summary.failedStep.map { "at \($0.name)" } ?? "starting"
    }

    /// `12 ms`, `1.2 s`.
    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.inMilliseconds
        if milliseconds < 1_000 { return "\(Int(milliseconds.rounded())) ms" }
        return "\((milliseconds / 100).rounded() / 10) s"
    }
}
