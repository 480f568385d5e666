import Foundation
import Operations
import OperationsJournal

/// `PROGRAM run NAME`: runs one of the program's scenarios or operations, journaled, so a run
/// that fails or is interrupted can be resumed by ``RerunScenario``.
public enum RunScenario<Program: RunnerProgram>: Command {
    /// `run`.
    public static var name: String { "run" }
    /// The program's line for `run`; "Run a scenario, journaled so that it can be resumed"
    /// unless it says more.
    public static var abstract: String {
        Program.configuration.run.abstract ?? "Run a scenario, journaled so that it can be resumed"
    }
    /// The program's `help run` text: the usage line (the runnable, the program's options, the
    /// runner's), the discussion, the options, the progress sentence and the exit statuses.
    public static var help: String {
        let program = Program.configuration
        let operand = program.run.operand ?? "<\(program.scenarios.map(\.name).joined(separator: "|"))>"
        let discussion =
            program.run.discussion
                ?? """
                Runs one of what '\(program.name) ops' lists. Every run is journaled and gets an id; a run that
                fails or is interrupted can be resumed with '\(program.name) rerun ID'.
                """
        return LaunchHelp.text(
            program, command: name, operands: [operand], discussion: discussion,
            options: program.run.options + runnerOptions)
    }
    /// The program's options, the runner's (``runnerOptions``), and the runnable's name.
    public static var spec: ArgumentSpec {
        ArgumentSpec(Program.configuration.run.options + runnerOptions, maxPositionals: 1)
    }
    /// The options the runner gives every program's `run`: `--state-dir` and `--json`; its
    /// usage line and help list them after the program's own.
    public static var runnerOptions: [CommandOption] { [Program.configuration.stateDir, CommonOptions.json] }

    /// Prepares the run with the program, creates its journal and runs it.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let program = Program.configuration
        guard let target = arguments.positionals.first else {
            throw UsageError(
                "missing what to run: \(program.runnablesInWords) (see '\(program.name) ops')", command: name)
        }
        guard let runnable = program.runnableName(target) else {
            throw UsageError(
                "unknown scenario or operation '\(ParsedArguments.clip(target))' (see '\(program.name) ops')",
                command: name)
        }
        let stateDirectory = program.stateDirectory(arguments, console)
        let prepared = try program.prepareRun(
            LaunchRequest(
                runnable: runnable, arguments: arguments, console: console, stateDirectory: stateDirectory,
                sealer: program.journalSealer))
        try StateDirectory.prepare(stateDirectory)
        let input = try prepared.makeInput()
        let journal: ScenarioJournal
        do throws(JournalError) {
            // The settings are durable with the header: no sidecar file to lose.
            journal = try program.runStore(stateDirectory).create(
                scenario: prepared.shape, settings: prepared.settings, input: input)
        } catch {
            throw CLIError.message("cannot start a run: \(error)")
        }
        return execute(
            prepared, runnable: runnable, journal: journal, arguments: arguments, console: console, input: input)
    }

    /// Runs the created or resumed `journal`'s run, replaying what a resumed one completed, and
    /// reports it as every run is reported.
    static func execute(
        _ prepared: PreparedRun<Program.Input>, runnable: String, journal: ScenarioJournal,
        arguments: ParsedArguments, console: Console, input: Program.Input?
    ) -> Int32 {
        let program = Program.configuration
        let stateDirectoryOption = program.stateDirectoryOption(arguments)
        return ScenarioExecution(
            program: program.name, scenario: runnable, journal: journal, replay: journal.replay,
            stateDirectoryOption: stateDirectoryOption, console: console, json: arguments.has(CommonOptions.json),
            explain: prepared.explain, hint: { program.hint(for: $0, stateDirectoryOption: stateDirectoryOption) },
            launch: prepared.launch
        ).run(input: input)
    }
}

/// How the runner lays out the help of `run` and `rerun`, for any program: the usage line
/// from the options, the discussion, the option lines, the progress sentence and the program's
/// exit statuses (``RunnerConfiguration/exitStatuses``).
enum LaunchHelp {
    static func text<Input>(
        _ program: RunnerConfiguration<Input>, command: String, operands: [String], discussion: String,
        options: [CommandOption]
    ) -> String {
        """
        \(HelpText.usage("\(program.name) \(command)", operands + CommandOption.usage(of: options)))

        \(discussion)

        OPTIONS:
        \(options.map(\.helpLine).joined(separator: "\n"))

        Progress goes to standard error, one line per step; the result to standard output.

        \(ExitStatus.helpSection(program.exitStatuses))
        """
    }
}
