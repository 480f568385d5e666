import Foundation
import Operations
import OperationsDiagrams
import OperationsJournal

/// `PROGRAM diagram --run RUN_ID`: the message diagram of a recorded run, drawn from the trace
/// the runner saves beside every run's journal (`RunTrace.swift`), so any program can draw its own
/// runs by listing this command.
///
/// `--depth N` draws N levels of launches with their insides, `--step NAME` one step wherever it
/// ran (nested scenarios included; N then counts from the step), `--format` and `--width` as
/// ``DiagramOptions`` reads them. Each session of the run (the run, each rerun) starts at a
/// divider naming its scenario (`RecordedTrace.markingSessions()`).
/// A program with diagrams of its own under the same command name (opctl draws its catalog with
/// `diagram NAME`) hands `--run` to ``draw(_:arguments:console:)``.
public enum DrawRun<Program: RunnerProgram>: Command {
    /// `diagram`.
    public static var name: String { "diagram" }
    /// The line of the program's help.
    public static var abstract: String { "Draw the message diagram of a recorded run" }
    /// The arguments after `PROGRAM diagram` in a usage line, in order.
    public static var usageArguments: [String] {
        ["--run RUN_ID", "[--depth N]", "[--step NAME]", "[--format …]", "[--width N|auto]", "[--state-dir DIR]"]
    }
    /// What follows `PROGRAM diagram` in a one-line usage, for a program's own `diagram` help.
    public static var usage: String { usageArguments.joined(separator: " ") }
    /// The text of `PROGRAM help diagram`.
    public static var help: String {
        """
        \(HelpText.usage("\(Program.configuration.name) diagram", usageArguments))

        Draws the trace recorded by a real '\(Program.configuration.name) run' (and each of its reruns): every
        step, retry and nested scenario the run went through, its values as they are traced
        (a Redactable value by its redacted label). A rerun's session notes the steps it replayed
        from the journal. A run stopped by Ctrl-C ends in a 'cut off' note; a run still going
        ends in a 'running: at STEP' note.

        \(DiagramOptions.fittingHelp)

        OPTIONS:
        \(options.map(\.helpLine).joined(separator: "\n"))
        """
    }
    /// `--run`, `--depth`, `--step`, `--format`, `--width`, `--state-dir`, each declared once for
    /// the parser and the help.
    public static var options: [CommandOption] {
        [runOption, depthOption, stepOption] + DiagramOptions.options + [Program.configuration.stateDir]
    }
    /// `--run RUN_ID`; a program's own drawing command may describe it in its words
    /// (``CommandOption/described(_:)``), and so the two others.
    public static var runOption: CommandOption {
        CommandOption("--run", value: "RUN_ID", "The run to draw (see '\(Program.configuration.name) runs')")
    }
    /// `--depth N`.
    public static var depthOption: CommandOption {
        CommandOption("--depth", value: "N", "Levels of launches drawn with their insides (default 2)")
    }
    /// `--step NAME`.
    public static var stepOption: CommandOption {
        CommandOption("--step", value: "NAME", "Draw only the launches of this step, also inside nested scenarios")
    }
    /// ``options``.
    public static var spec: ArgumentSpec { ArgumentSpec(options) }

    /// Draws the run `--run` names.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard let id = arguments.value(runOption) else {
            throw UsageError(
                "missing the run to draw: --run RUN_ID (see '\(Program.configuration.name) runs')", command: name)
        }
        return try draw(id, arguments: arguments, console: console)
    }

    /// Draws run `id` as the rest of the command line says (`--depth`, `--step`, `--format`,
    /// `--width`, `--state-dir`); for a program's own `diagram` command that also draws other
    /// things. `id` is the run id as typed; returns the exit status.
    ///
    /// - Throws: ``UsageError`` for bad options or a step the run does not have, ``CLIError``
    ///   when there is no such run or trace, or the diagram cannot be drawn.
    public static func draw(_ id: String, arguments: ParsedArguments, console: Console) throws -> Int32 {
        let options = try DiagramOptions(arguments, console: console, command: name)
        let depth = try DiagramOptions.number(
            arguments.value(depthOption), option: depthOption.name, default: 2, minimum: 1, command: name)
        let store = Program.configuration.runStore(Program.configuration.stateDirectory(arguments, console))
        let runID = try RunLookup.id(id, program: Program.configuration.name)
        console.out(try drawing(runID, in: store, depth: depth, step: arguments.value(stepOption), options: options))
        return ExitStatus.success
    }

    /// Run `runID`'s diagram as `diagram --run` prints it: what the command and the web view's
    /// diagram route (`WebRoutes.swift`) both serve.
    ///
    /// - Parameters:
    ///   - runID: The run.
    ///   - store: The run store it is in.
    ///   - depth: Levels of launches drawn with their insides (counted from the step with `step`).
    ///   - step: Only this step's launches, wherever they ran; `nil` for the whole run.
    ///   - options: The format and width.
    /// - Returns: The drawing.
    /// - Throws: ``UsageError`` when there is no such run or the run has no such step,
    ///   ``CLIError`` when its trace is missing or cannot be read, or the diagram cannot be drawn.
    static func drawing(_ runID: RunID, in store: RunStore, depth: Int, step: String?, options: DiagramOptions)
        throws -> String
    {
        let recorded = try RunTrace.loadRecorded(for: store.url(for: runID), runID: runID) {
            _ = try RunLookup.record(runID, in: store, program: Program.configuration.name)
        }
        // A journal that does not read leaves the trace as it was recorded.
        let trace = RunTrace.drawable(recorded, history: (try? store.load(runID)).map { RunHistory($0) })
        return try options.draw(RunTrace.shown(trace, depth: depth, step: step, command: name))
    }
}
