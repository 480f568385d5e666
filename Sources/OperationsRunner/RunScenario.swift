import Foundation
import Operations
import OperationsJournal

/// `PROGRAM run NAME`: runs one of the program's scenarios or operations, journaled, so a run
/// that fails or is interrupted can be resumed by ``RerunScenario``.
public enum RunScenario<Program: LaunchingProgram>: Command {
    /// `run`.
    public static var name: String { "run" }
    /// The program's line for `run`.
    public static var abstract: String { Program.runAbstract }
    /// The program's `help run` text.
    public static var help: String { Program.runHelp }
    /// The program's options, the runner's (``runnerOptions``), and the runnable's name.
    public static var spec: ArgumentSpec {
        var spec = Program.runOptions.adding(runnerOptions)
        spec.maxPositionals = 1
        return spec
    }
    /// The options the runner gives every program's `run`: `--state-dir` and `--json`; its
    /// usage line and help list them after the program's own.
    public static var runnerOptions: [CommandOption] {
        [CommonOptions.stateDir(program: Program.name), CommonOptions.json]
    }

    /// Prepares the run with the program, creates its journal and runs it.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard let target = arguments.positionals.first else {
            throw UsageError(
                "missing what to run: \(Program.runnablesInWords) (see '\(Program.name) ops')", command: name)
        }
        guard let runnable = Program.runnableName(target) else {
            throw UsageError(
                "unknown scenario or operation '\(ParsedArguments.clip(target))' (see '\(Program.name) ops')",
                command: name)
        }
        let stateDirectory = Program.stateDirectory(arguments, console)
        let prepared = try Program.prepareRun(
            runnable, arguments: arguments, console: console, stateDirectory: stateDirectory)
        try StateDirectory.prepare(stateDirectory)
        let input = try prepared.makeInput()
        let journal: ScenarioJournal
        do throws(JournalError) {
            // The settings are durable with the header: no sidecar file to lose.
            journal = try Program.runStore(stateDirectory).create(
                scenario: prepared.shape, settings: prepared.settings, input: input)
        } catch {
            throw CLIError.message("cannot start a run: \(error)")
        }
        return ScenarioExecution(
            program: Program.name, scenario: runnable, failureHint: prepared.failureHint, journal: journal,
            replay: nil, stateDirectoryOption: arguments.value("--state-dir"), console: console,
            json: arguments.has("--json"), hooks: prepared.hooks, launch: prepared.launch
        ).run(input: input)
    }
}
