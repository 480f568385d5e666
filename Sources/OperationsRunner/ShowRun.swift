import Foundation
import Operations
import OperationsJournal

/// `PROGRAM show RUN_ID`: one run's steps, attempts and outcome, read from its journal alone,
/// so it works for any program's runs.
public enum ShowRun<Program: RunnerProgram>: Command {
    /// `show`.
    public static var name: String { "show" }
    /// The line of the program's help.
    public static var abstract: String { "Show a run's steps, attempts and outcome" }
    /// The text of `PROGRAM help show`.
    public static var help: String {
        """
        \(HelpText.usage("\(Program.configuration.name) show", ["RUN_ID"] + CommandOption.usage(of: options)))

        Shows one run as its journal records it: its status, sessions and error, every step with
        its outcome and attempts (a polled step's polls, a compensation beside the step it undid,
        a step with side effects left in doubt), the runs it was rerun from or as, and how to go
        on. It reads the journal only, so it works for any run of any program and launches nothing.

        OPTIONS:
        \(options.map(\.helpLine).joined(separator: "\n"))
        """
    }
    /// `--state-dir`, `--json`, each declared once for the parser, the usage line and the help.
    public static var options: [CommandOption] { [Program.configuration.stateDir, CommonOptions.json] }
    /// A run id and ``options``.
    public static var spec: ArgumentSpec { ArgumentSpec(options, maxPositionals: 1) }

    /// Prints the run's steps, or its JSON object with `--json`.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard let id = arguments.positionals.first else {
            throw UsageError("missing the run id (see '\(Program.configuration.name) runs')", command: name)
        }
        let stateDirectory = Program.configuration.stateDirectory(arguments, console)
        let runID = try RunLookup.id(id, program: Program.configuration.name)
        let store = Program.configuration.runStore(stateDirectory)
        let record = try RunLookup.record(runID, in: store, program: Program.configuration.name)
        let links = RunLinks(store: store)
        if arguments.has("--json") {
            let steps: [[String: Any]] = record.steps.map { step in
                var object: [String: Any] = [
                    "step": step.name, "address": step.address.description, "outcome": step.outcome.rawValue,
                    "inDoubt": step.isInDoubt && step.purity == .sideEffects,
                    "attempts": step.attempts.map { attempt -> [String: Any] in
                        var object: [String: Any] = [
                            "attempt": attempt.attempt, "session": attempt.session,
                            "outcome": Self.outcome(attempt.outcome),
                        ]
                        object["milliseconds"] = attempt.duration.map(Self.milliseconds)
                        if case .failed(let error, _) = attempt.outcome { object["error"] = error.description }
                        return object
                    },
                ]
                if step.purity == .sideEffects, let key = step.keyInDoubt { object["keyInDoubt"] = key.redacted }
                // Present only for a polled step, so every other step's object is as it was.
                if let progress = record.pollProgress[step.address] {
                    object["polls"] = progress.polls
                    object["pollingBegan"] = RunTimestamp.text(progress.began)
                    object["nextPollAt"] = progress.nextPoll.map { RunTimestamp.text($0.until) } ?? NSNull()
                }
                return object
            }
            var object: [String: Any] = [
                "id": runID.description, "scenario": record.scenario, "status": record.status.rawValue, "steps": steps,
                "startedAt": RunTimestamp.text(record.startedAt ?? record.createdAt), "sessions": record.sessions,
                "failedStep": record.failedStep?.name ?? NSNull(),
            ]
            object["error"] = record.error?.description
            let hint = Program.configuration.hint(for: record, stateDirectoryOption: arguments.value("--state-dir"))
            object["rerun"] = hint?.rerun ?? NSNull()
            object["hint"] = hint?.line ?? NSNull()
            // Present only for linked runs, so the object of every other run is as it was.
            if let origin = record.rerunOf { object["rerunOf"] = RunLinks.object(run: origin.run, step: origin.step) }
            if !links.objects(of: runID).isEmpty { object["reruns"] = links.objects(of: runID) }
            console.print(JSONText.encode(object))
            return ExitStatus.success
        }
        console.print("Run \(runID) · \(record.scenario) · \(record.status)")
        console.print(
            "Started \(RunTimestamp.text(record.startedAt ?? record.createdAt))"
                + (record.sessions > 1 ? " · \(record.sessions) sessions (resumed)" : ""))
        if let origin = record.rerunOf {
            console.print("This run is a \(RunLinks.text(origin)): the steps before it were replayed")
        }
        if let reruns = links.text(of: runID) { console.print("This run was \(reruns)") }
        if let error = record.error { console.print("Error: \(error)") }
        for step in record.steps {
            // A compensation stands at the level of the step it undoes, and says which.
            let level = step.address.path.count - (step.address.isCompensation ? 1 : 0)
            let indent = String(repeating: "  ", count: level)
            let doubt =
                step.isInDoubt && step.purity == .sideEffects
                ? " — in doubt: it may have acted; a rerun repeats it with the same idempotency key"
                    + (step.keyInDoubt.map { " (\($0.redacted))" } ?? "") : ""
            let undone = step.address.path.dropLast().last?.name ?? ""
            let name = step.address.isCompensation ? "\(step.name) (undoes \(undone))" : step.name
            console.print("\(indent)\(name): \(step.outcome)\(doubt)")
            // A polled step's launches are its polls: each one's first attempt starts a poll.
            let progress = record.pollProgress[step.address]
            var poll = 0
            for attempt in step.attempts {
                let took = attempt.duration.map { " (\(ProgressPrinter.format($0)))" } ?? ""
                let session = record.sessions > 1 ? " (session \(attempt.session))" : ""
                let label: String
                if progress != nil {
                    if attempt.attempt == 1 { poll += 1 }
                    label = attempt.attempt == 1 ? "poll \(poll)" : "poll \(poll), attempt \(attempt.attempt)"
                } else {
                    label = "attempt \(attempt.attempt)"
                }
                console.print("\(indent)  \(label)\(session): \(Self.outcome(attempt.outcome))\(took)")
            }
            if let next = progress?.nextPoll, record.status != .succeeded {
                let polls = progress.map { $0.polls == 1 ? "1 poll" : "\($0.polls) polls" } ?? ""
                console.print(
                    "\(indent)  pending after \(polls); next poll \(RunTimestamp.text(next.until)) "
                        + "(a rerun waits only what is left)")
            }
        }
        // The way on the run ended with, from the same journal (``RunHint``).
        if let line = Program.configuration.hint(for: record, stateDirectoryOption: arguments.value("--state-dir"))?
            .line
        {
            console.print(line)
        }
        return ExitStatus.success
    }

    private static func outcome(_ outcome: AttemptRecord.Outcome) -> String {
        switch outcome {
        case .succeeded: "succeeded"
        case .failed(let error, let willRetry):
            (error.isCancellation ? "cancelled: \(error)" : "failed: \(error)") + (willRetry ? " (retried)" : "")
        case .interrupted: "interrupted"
        case .running: "running"
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.inMilliseconds.rounded(.down))
    }
}
