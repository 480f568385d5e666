public import Foundation
public import Operations
public import OperationsJournal

/// A program built on the runner, as the generic commands (`runs`, `show`, `prune`, `check`,
/// `diagram`, `ops`) need to know it: its name and what it can run. A program declares one
/// conforming type and puts the commands, specialised to it, in its command table. Its metatype
/// is sendable because the commands use it inside closures.
///
/// ## Screens must not need the main actor
///
/// A runner is a command-line program: ``RunnerMain/runProcess()`` runs the command on the main
/// thread, and `run`/`rerun` block that thread until the run finishes. Nothing else drains the
/// main queue meanwhile, so a screen the run shows (a prompt, a picker) that hops to the main
/// actor — a `@MainActor` screen or view model, `DispatchQueue.main.async`, `MainActor.run` —
/// waits for a thread that is waiting for it: the run deadlocks. Give the runner screens that
/// answer on the thread that asks them, or on a queue of their own (opctl reads the terminal
/// synchronously); keep the `@MainActor` ones for the app, which launches the same scenario
/// from its main actor and does not block it.
public protocol RunnerProgram: SendableMetatype {
    /// The program's name as typed: in usage lines, hints, messages and the state directory.
    static var name: String { get }
    /// What `--version` prints after the name.
    static var version: String { get }
    /// The sentence after `OVERVIEW:` in the top-level help, wrapped as it should print.
    static var overview: String { get }
    /// The command lines under `EXAMPLES:` in the top-level help.
    static var examples: [String] { get }
    /// What ends a run as cancelled (exit status 3), for the top-level help; "the run
    /// cancelled" unless the program says more.
    static var cancelledStatusHelp: String { get }
    /// Every status the program exits with and what it means: the one table its top-level help
    /// and `help run`/`help rerun` print (``ExitStatus/meanings(cancelled:)`` with
    /// ``cancelledStatusHelp`` unless the program says more, e.g. a status of its own).
    static var exitStatuses: [ExitStatus.Meaning] { get }
    /// The command table, in the order the help lists it: the runner's commands specialised to
    /// the program, and its own.
    static var commands: [any Command.Type] { get }
    /// What the program can run, in `ops` order; a new user is told to start the first.
    static var scenarios: [ScenarioListing] { get }
    /// The sentence of `help ops` under its usage line; "Lists what 'PROGRAM run' launches, one
    /// line each." unless the program says more.
    static var scenariosHelp: String { get }
    /// What `runs --scenario NAME` accepts, in words for its help (opctl: "auth, app, or an
    /// operation's name").
    static var scenarioNamesHelp: String { get }
    /// The shape of everything it can run, as this build would launch it and named as its
    /// journals are: what `check` compares waiting runs with. Nothing is launched.
    ///
    /// - Parameters:
    ///   - stateDirectory: The state directory of the check.
    ///   - console: The console, for services that need one to be built.
    static func shapes(stateDirectory: URL, console: Console) -> [ScenarioShape]
    /// The flows `explore` runs under every fault schedule, over simulated services; none by
    /// default.
    static var explorations: [Exploration] { get }
    /// Removes the drafts of the program's own files beside its runs that a killed process
    /// left, when they may hold secrets (opctl: the saved sign-in's); each command that opens
    /// the state directory asks, and ``RunStore`` tidies the runs' own. It must keep a draft a
    /// live process still writes (`DraftFile` in `Sources/Operations/Journal/DraftFile.swift`
    /// is one way). Nothing by default.
    ///
    /// - Parameter stateDirectory: The state directory being opened.
    static func removeAbandonedDrafts(in stateDirectory: URL)
    /// Seals the confidential values of the program's runs (``JournalSealer``): every run the
    /// runner creates or resumes seals them instead of withholding them, and every command that
    /// opens a journal (`run`, `rerun`, `show`, `check`, `diagram`, `runs`, `prune`) opens it
    /// with this one sealer, so a sealed run's values open wherever its journal is read. `nil`
    /// (no sealer, the default) withholds them, and a rerun runs their steps again.
    ///
    /// Give it from where the key lives (the platform's keystore), never from the command
    /// line; a rerun's ``LaunchingProgram/prepareRerun(_:record:arguments:console:stateDirectory:)``
    /// opens a sealed run input with it too (`record.input(as:sealer:)`).
    static var journalSealer: (any JournalSealer)? { get }
}

extension RunnerProgram {
    /// "the run cancelled".
    public static var cancelledStatusHelp: String { "the run cancelled" }
    /// No flows to explore.
    public static var explorations: [Exploration] { [] }

    /// No sealer: confidential values are withheld from the program's journals.
    public static var journalSealer: (any JournalSealer)? { nil }

    /// The program's run store in `stateDirectory`, with its ``journalSealer``: the one way the
    /// runner's commands open journals.
    static func runStore(_ stateDirectory: URL) -> RunStore {
        RunStore(stateDirectory: stateDirectory, sealer: journalSealer)
    }

    /// The runner's statuses, status 3 in the program's words (``cancelledStatusHelp``).
    public static var exitStatuses: [ExitStatus.Meaning] { ExitStatus.meanings(cancelled: cancelledStatusHelp) }

    /// "Lists what 'PROGRAM run' launches, one line each."
    public static var scenariosHelp: String { "Lists what '\(name) run' launches, one line each." }

    /// Nothing: a program that keeps no files of its own beside its runs leaves no drafts.
    public static func removeAbandonedDrafts(in stateDirectory: URL) {}

    /// The state directory a command line names (`--state-dir`, else the program's variable),
    /// opened: the drafts of the program's files a killed process left are removed
    /// (``removeAbandonedDrafts(in:)``).
    static func stateDirectory(_ arguments: ParsedArguments, _ console: Console) -> URL {
        let directory = StateDirectory.resolve(
            option: arguments.value("--state-dir"), environment: console.environment, program: name)
        removeAbandonedDrafts(in: directory)
        return directory
    }

    /// The help line of `--state-dir` with the program's variable and folder.
    static var stateDirHelp: String { CommonOptions.stateDirHelp(program: name) }
}
