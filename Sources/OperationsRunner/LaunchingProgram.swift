public import Foundation
public import Operations

/// A runner program that runs and reruns its scenarios with the runner's ``RunScenario`` and
/// ``RerunScenario``: it names its runnables, declares the options and help of `run` and
/// `rerun` beyond the runner's own (`--state-dir`, `--json`, `--relaunch-in-doubt`), and
/// prepares each run from its command line. The runner does the rest: lookup, journal, resume,
/// launch, output and exit status.
public protocol LaunchingProgram: RunnerProgram {
    /// What every runnable is launched with, when the command line or the journal has it (a
    /// screen may ask for it otherwise): opctl's is the phone number.
    associatedtype Input: Codable & Sendable

    /// The runnable a typed name means (its aliases resolved), or `nil` when there is none.
    ///
    /// `rerun` asks it too, with the scenario name a run's journal records
    /// (``PreparedRun/shape``'s name, e.g. `CheckoutScenario`): accept that name as well as the
    /// one people type, or name the shape after the runnable.
    static func runnableName(_ typed: String) -> String?
    /// The runnables in words, for the error of a `run` without one ("auth, app or an
    /// operation").
    static var runnablesInWords: String { get }
    /// The line of `run` in the program's help.
    static var runAbstract: String { get }
    /// The whole `help run` text.
    static var runHelp: String { get }
    /// The program's own flags and options of `run`; the runner adds `--state-dir` and `--json`.
    static var runOptions: ArgumentSpec { get }
    /// The line of `rerun` in the program's help.
    static var rerunAbstract: String { get }
    /// The whole `help rerun` text.
    static var rerunHelp: String { get }
    /// The program's own flags and options of `rerun`; the runner adds `--state-dir`, `--json`
    /// and `--relaunch-in-doubt`.
    static var rerunOptions: ArgumentSpec { get }

    /// Prepares a new run of `runnable` from the command line, touching no file.
    ///
    /// - Throws: ``UsageError`` for options it cannot use.
    static func prepareRun(_ runnable: String, arguments: ParsedArguments, console: Console, stateDirectory: URL)
        throws -> PreparedRun<Input>

    /// Prepares the rerun of a run of `runnable`, from its journal and the command line.
    ///
    /// - Throws: ``UsageError`` for options it cannot use.
    static func prepareRerun(
        _ runnable: String, record: JournalRecord, arguments: ParsedArguments, console: Console,
        stateDirectory: URL
    ) throws -> PreparedRun<Input>
}
