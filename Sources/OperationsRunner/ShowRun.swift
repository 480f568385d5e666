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
        a step with side effects left in doubt, a step replayed and the session that replayed it),
        the runs it was rerun from or as, and how to go on. A run a live process is still writing
        is running, at its current step and for how long. It reads the journal only, so it works
        for any run of any program and launches nothing.

        With --follow it follows a live run to its end, printing each step and attempt as the
        journal records it, then the run's status; of a finished run it prints its steps and end.

        OPTIONS:
        \(options.map(\.helpLine).joined(separator: "\n"))
        """
    }
    /// `--state-dir`, `--json`, `--follow`, each declared once for the parser, the usage line and
    /// the help.
    public static var options: [CommandOption] { [Program.configuration.stateDir, CommonOptions.json, follow] }
    /// `--follow`: follow a live run to its end.
    public static var follow: CommandOption {
        CommandOption("--follow", "Follow a live run to its end, printing each step as it is recorded")
    }
    /// A run id and ``options``.
    public static var spec: ArgumentSpec { ArgumentSpec(options, maxPositionals: 1) }

    /// Prints the run's steps, or its JSON object with `--json`, or follows it with `--follow`.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard let id = arguments.positionals.first else {
            throw UsageError("missing the run id (see '\(Program.configuration.name) runs')", command: name)
        }
        let stateDirectory = Program.configuration.stateDirectory(arguments, console)
        let runID = try RunLookup.id(id, program: Program.configuration.name)
        let store = Program.configuration.runStore(stateDirectory)
        let record = try RunLookup.record(runID, in: store, program: Program.configuration.name)
        if arguments.has(follow) {
            return try RunFollower(store: store, runID: runID, console: console).follow(from: record)
        }
        let links = RunLinks(madeFrom: runID, in: store)
        let history = RunHistory(record)
        // The way on the run ended with, from the same journal (``RunHint``).
        let hint = Program.configuration.hint(
            for: record, stateDirectoryOption: Program.configuration.stateDirectoryOption(arguments))
        if arguments.has(CommonOptions.json) {
            var object = Self.object(history, links: links)
            object["rerun"] = hint?.rerun ?? NSNull()
            object["hint"] = hint?.line ?? NSNull()
            console.print(JSONText.encode(object))
            return ExitStatus.success
        }
        let text = HistoryText(history: history)
        console.print(text.headline)
        for line in text.overview(reruns: links.text(of: runID)) { console.print(line) }
        for line in text.lines { console.print(line.text) }
        for line in text.eventLines { console.print(line) }
        if let line = hint?.line { console.print(line) }
        return ExitStatus.success
    }

    /// The run's JSON object: what `show --json` prints, read from the same history as the text.
    static func object(_ history: RunHistory, links: RunLinks) -> [String: Any] {
        let steps: [[String: Any]] = history.steps.map { step in
            var object: [String: Any] = [
                "step": step.name, "address": step.address.description, "outcome": step.outcome.rawValue,
                "inDoubt": step.isInDoubt,
                "attempts": step.attempts.map { attempt -> [String: Any] in
                    var object: [String: Any] = [
                        "attempt": Self.number(attempt.label), "label": attempt.label.description,
                        "session": attempt.session, "outcome": HistoryText.outcome(attempt.outcome),
                    ]
                    object["milliseconds"] = attempt.duration.map(Self.milliseconds)
                    if case .failed(let error, _) = attempt.outcome { object["error"] = error.description }
                    return object
                },
            ]
            if let key = step.keyInDoubt { object["keyInDoubt"] = key.redacted }
            // Present only where they apply, so every other step's object is as it was.
            if !step.replayedInSessions.isEmpty { object["replayedInSessions"] = step.replayedInSessions }
            if history.undone.contains(step.address) { object["undone"] = true }
            if let progress = step.polls {
                object["polls"] = progress.polls
                object["pollingBegan"] = RunTimestamp.text(progress.began)
                object["nextPollAt"] = progress.nextPoll.map { RunTimestamp.text($0.until) } ?? NSNull()
            }
            return object
        }
        var object: [String: Any] = [
            "id": history.runID.description, "scenario": history.scenario, "status": history.status.rawValue,
            "steps": steps, "startedAt": RunTimestamp.text(history.startedAt), "sessions": history.sessions,
            "failedStep": history.failedStep?.name ?? NSNull(),
        ]
        object["error"] = history.error?.description
        // Present only for a live run: where it is and since when.
        if let current = history.current {
            object["currentStep"] = current.step.name
            object["currentStepSince"] = RunTimestamp.text(current.since)
            object["currentStepMilliseconds"] = Self.milliseconds(current.elapsed)
        }
        // Present only for a run that handled events from outside, so other objects are as they were.
        if !history.events.isEmpty { object["events"] = history.events.map(Self.object) }
        // Present only for linked runs, so the object of every other run is as it was.
        if let origin = history.rerunOf { object["rerunOf"] = RunLinks.object(run: origin.run, step: origin.step) }
        if !links.objects(of: history.runID).isEmpty { object["reruns"] = links.objects(of: history.runID) }
        return object
    }

    /// A handled event's JSON object: the same facts as its lines in the text.
    private static func object(_ record: HandledEventRecord) -> [String: Any] {
        let launched: [[String: Any]] = record.event.launched.map { launch in
            var object: [String: Any] = [
                "step": launch.path.joined(separator: "/"), "outcome": launch.outcome.rawValue,
                "attempts": launch.attempts,
            ]
            object["output"] = launch.output
            object["error"] = launch.error
            return object
        }
        return [
            "event": record.event.event, "boundary": record.event.boundary,
            "reaction": record.event.reaction.description, "session": record.session,
            "scenario": record.scenario.description, "at": RunTimestamp.text(record.at), "launched": launched,
        ]
    }

    /// The attempt number over the whole run (a poll's attempt within the poll).
    private static func number(_ label: RunHistory.Attempt.Label) -> Int {
        switch label {
        case .attempt(let number): number
        case .poll(_, let attempt): attempt
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.inMilliseconds.rounded(.down))
    }
}
