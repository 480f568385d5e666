import Foundation
import Operations
import OperationsJournal

/// `PROGRAM rerun RUN_ID`: resumes a failed or interrupted run from its journal: completed steps
/// are replayed, the failed or interrupted one is launched again.
public enum RerunScenario<Program: RunnerProgram>: Command {
    /// `rerun`.
    public static var name: String { "rerun" }
    /// The program's line for `rerun`.
    public static var abstract: String {
        Program.configuration.rerun.abstract
            ?? "Resume a failed or interrupted run: completed steps are replayed, the failed one runs again"
    }
    /// The program's `help rerun` text, laid out as `help run` is, after `RUN_ID`; its
    /// discussion is ``replayParagraph`` unless the program says more.
    public static var help: String {
        let program = Program.configuration
        return LaunchHelp.text(
            program, command: name, operands: ["RUN_ID"], discussion: program.rerun.discussion ?? replayParagraph,
            options: program.rerun.options + runnerOptions)
    }
    /// The program's options, the runner's (``runnerOptions``), and the run id.
    public static var spec: ArgumentSpec {
        ArgumentSpec(Program.configuration.rerun.options + runnerOptions, maxPositionals: 1)
    }
    /// The options the runner gives every program's `rerun`: `--from` (with `--yes` and
    /// `--dry-run`), `--relaunch-in-doubt`, `--state-dir` and `--json`; its usage line and help list them after the program's own.
    public static var runnerOptions: [CommandOption] {
        [
            CommonOptions.rerunFrom, CommonOptions.yes, CommonOptions.dryRun, CommonOptions.relaunchInDoubt,
            Program.configuration.stateDir, CommonOptions.json,
        ]
    }
    /// What every rerun does, the first paragraph of `help rerun` unless the program replaces
    /// it (``RunnerConfiguration/Launch/discussion``).
    public static var replayParagraph: String {
        """
        Steps that completed are replayed from the run's journal — their operations are not
        launched again — and the failed or interrupted step is launched again with the same
        input. A run that already succeeded is left alone.
        """
    }

    /// Finds the run, prepares its rerun with the program, resumes its journal and runs it.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let program = Program.configuration
        guard let id = arguments.positionals.first else {
            throw UsageError("missing the run id (see '\(program.name) runs')", command: name)
        }
        let stateDirectory = program.stateDirectory(arguments, console)
        let store = program.runStore(stateDirectory)
        let runID = try RunLookup.id(id, program: program.name)
        for option in [CommonOptions.yes, CommonOptions.dryRun]
        where arguments.has(option) && arguments.value(CommonOptions.rerunFrom) == nil {
            throw UsageError("\(option.name) goes with --from STEP: a plain rerun launches nothing anew", command: name)
        }
        if arguments.has(CommonOptions.yes), arguments.has(CommonOptions.dryRun) {
            throw UsageError(
                "--dry-run with --yes: a dry run launches nothing, so there is nothing to confirm", command: name)
        }
        // Damaged lines are skipped, as the resume will: the run goes on from what is intact,
        // and a step with side effects the damage could hide stops it (exit 2).
        let record = try RunLookup.record(runID, in: store, program: program.name, toResume: true)
        for damaged in record.damagedLines {
            console.note("\(program.name): run \(runID): skipping damaged \(damaged)")
        }
        if let step = arguments.value(CommonOptions.rerunFrom) {
            return try RerunFromStep<Program>.run(
                record, runID: runID, step: step, store: store, stateDirectory: stateDirectory, arguments: arguments,
                console: console)
        }
        // In the order `check` judges a run: finished first, then whether this build has its scenario.
        if record.status == .succeeded || record.isUndone {
            let runnable = program.runnableName(record.scenario) ?? record.scenario
            return leftAlone(
                record, undone: record.status != .succeeded, runID: runID, runnable: runnable, arguments: arguments,
                console: console)
        }
        let (runnable, prepared) = try preparedRerun(
            record, runID: runID, verb: "resume", arguments: arguments, console: console, stateDirectory: stateDirectory
        )
        // A run this build cannot resume is refused as such before the program is asked for the
        // input a rerun would need: the decision the resume takes below, on the same record.
        do throws(JournalError) {
            try record.checkResumable(
                by: prepared.shape, relaunchingInDoubt: arguments.has(CommonOptions.relaunchInDoubt),
                sealer: program.journalSealer)
        } catch {
            throw refusal(error, runID: runID, runnable: runnable, record: record, arguments: arguments)
        }
        // A rerun that would stop at a question nobody can answer is refused before anything is
        // launched or journaled: the inputs its steps still ask for (``RunnerConfiguration/rerunInputs``,
        // as the run's hint names them) that the command line does not give, when standard input
        // is not a terminal. A rerun without the code would otherwise send the SMS again only to
        // record that nobody entered it.
        let missing = RerunInput.needed(by: record, of: program.rerunInputs).filter { input in
            !([input.option] + input.alternatives).contains { arguments.has($0) || arguments.value($0) != nil }
        }
        if !console.inputIsTerminal, !missing.isEmpty {
            let command = RunHint.command(
                record, program: program.name, inputs: program.rerunInputs,
                stateDirectoryOption: program.stateDirectoryOption(arguments))
            throw UsageError(
                "run \(runID) still asks for \(missing.map(\.words).joined(separator: ", ")) "
                    + "(standard input is not a terminal, so \(program.name) cannot ask)",
                hint: "To resume: \(command)")
        }
        try StateDirectory.prepare(stateDirectory)
        let input = try prepared.makeInput()
        let journal: ScenarioJournal
        do throws(JournalError) {
            // The decision `check` takes, on the journal read again under its lock.
            journal = try store.resume(
                runID, scenario: prepared.shape, relaunchingInDoubt: arguments.has(CommonOptions.relaunchInDoubt))
        } catch .alreadySucceeded {
            // Another process finished it while this one waited for the journal's lock.
            return leftAlone(
                record, undone: false, runID: runID, runnable: runnable, arguments: arguments, console: console)
        } catch .alreadyUndone {
            // Another process finished undoing it while this one waited for the journal's lock.
            return leftAlone(
                (try? store.load(runID)) ?? record, undone: true, runID: runID, runnable: runnable,
                arguments: arguments, console: console)
        } catch {
            throw refusal(error, runID: runID, runnable: runnable, arguments: arguments)
        }
        prepared.resumed(journal.url)
        return RunScenario<Program>.execute(
            prepared, runnable: runnable, journal: journal, arguments: arguments, console: console, input: input)
    }

    /// The old run's scenario in this build, prepared by the program to run again from the old
    /// run's input, settings and the options given now; refused, naming the run, when this build
    /// has no such scenario. `verb` says what could not be done: "resume", "rerun".
    static func preparedRerun(
        _ record: JournalRecord, runID: RunID, verb: String, arguments: ParsedArguments, console: Console,
        stateDirectory: URL
    ) throws -> (runnable: String, prepared: PreparedRun<Program.Input>) {
        let program = Program.configuration
        guard let runnable = program.runnableName(record.scenario) else {
            throw CLIError.message(
                "cannot \(verb) run \(runID): \(ResumeCheck.reason(forUnknownScenario: record.scenario))")
        }
        let prepared = try program.prepareRerun(
            LaunchRequest(
                runnable: runnable, arguments: arguments, console: console, stateDirectory: stateDirectory,
                sealer: program.journalSealer),
            record)
        return (runnable, prepared)
    }

    /// Why a run cannot be resumed, as the error the command exits with: nothing was launched
    /// or written in any of these cases, and the reason is the sentence `check` gives for it.
    ///
    /// With the run's `record` and the command line, the relaunch it suggests carries the inputs
    /// the run still needs (``RunHint``).
    static func refusal(
        _ error: JournalError, runID: RunID, runnable: String, record: JournalRecord? = nil,
        arguments: ParsedArguments? = nil
    ) -> any Error {
        let program = Program.configuration
        let refusal = "cannot resume run \(runID): \(ResumeCheck.reason(for: error))"
        switch error {
        case .shapeMismatch, .missingShape:
            // The run waits for a build that matches it.
            return UsageError(
                refusal,
                hint:
                    "Resume it with the \(program.name) build that started it, or start a new run: \(program.name) run \(runnable)"
                    + RunHint.stateDirectoryWords(arguments.flatMap(program.stateDirectoryOption)))
        case .resumeRefused:
            let rerun =
                record.map {
                    RunHint.command(
                        $0, program: program.name, inputs: program.rerunInputs,
                        stateDirectoryOption: arguments.flatMap(program.stateDirectoryOption))
                }
                ?? "\(program.name) rerun \(runID)"
                + RunHint.stateDirectoryWords(arguments.flatMap(program.stateDirectoryOption))
            return UsageError(refusal, hint: RunHint.relaunchInDoubt(rerun))
        case .linesLost:
            // No word of the caller's gets past lines that are gone: no hint to relaunch.
            return CLIError.message(refusal)
        default:
            return CLIError.message("cannot resume run \(runID): \(error)")
        }
    }

    /// A run that already succeeded, or failed for good and was `undone`, is left alone and says
    /// so as `show` does. Resuming an undone run would go past the undoing (confirm an order whose
    /// stock was released); it exits as a failed run, because that is what it is.
    private static func leftAlone(
        _ record: JournalRecord, undone: Bool, runID: RunID, runnable: String, arguments: ParsedArguments,
        console: Console
    ) -> Int32 {
        let steps = record.undoneSteps.map(\.name)
        if arguments.has(CommonOptions.json) {
            var object: [String: Any] = [
                "id": runID.description, "scenario": runnable, "status": undone ? "failed" : "succeeded",
                "failedStep": undone ? record.failedStep.map { $0.name } ?? NSNull() : NSNull(),
                "startedAt": RunTimestamp.text(record.startedAt ?? record.createdAt), "rerun": false,
            ]
            if undone { object["undone"] = steps }
            console.print(JSONText.encode(object))
        } else if undone {
            let step = record.failedStep.map { " at \($0.name)" } ?? ""
            console.print(
                "Run \(runID) failed for good\(step) and was undone (\(steps.joined(separator: ", "))). "
                    + "Nothing is left to rerun.")
        } else {
            console.print("Run \(runID) already succeeded; nothing to do.")
        }
        return undone ? ExitStatus.failure : ExitStatus.success
    }
}
