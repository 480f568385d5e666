public import Foundation
import Operations
public import OperationsJournal

/// A runner program that runs and reruns its scenarios with the runner's ``RunScenario`` and
/// ``RerunScenario``: it names its runnables, declares the options of `run` and `rerun` beyond
/// the runner's own (`--state-dir`, `--json`, `--relaunch-in-doubt`), and prepares each run from
/// its command line. The runner does the rest: lookup, journal, resume, launch, output, exit
/// status, and help.
///
/// A program declares only what is its own, each option once (``CommandOption``): the parser,
/// the usage line and the help line are made from it. The help of `run` and `rerun` is laid
/// out by the runner from the program's usage arguments, discussion and option lines, with
/// the runner's options, the progress sentence and the exit statuses
/// (``RunnerProgram/exitStatuses``) added; every help requirement has a default, and
/// `runHelp`/`rerunHelp` can still be replaced whole.
///
/// ```swift
/// enum CheckoutProgram: LaunchingProgram {
///     static let declaredRunOptions = [CommandOption("--coupon", value: "CODE", "A coupon to apply")]
///     // … name, scenarios, prepareRun, prepareRerun
/// }
/// ```
///
/// The screens a prepared run shows answer while the runner blocks its thread waiting for the
/// run to finish (see ``PreparedRun``): they must not need the main actor.
///
/// A program whose runs carry secrets (``JournalConfidential`` values) gives the runner its
/// ``RunnerProgram/journalSealer``: every run the runner creates or resumes then seals them
/// instead of withholding them, so a rerun replays the steps that made them — a screen is not
/// shown again — and `show`, `check` and `diagram` open the journals with the same sealer.
/// Without one (the default) they are withheld and a rerun launches those steps again.
///
/// ```swift
/// enum PayoutProgram: LaunchingProgram {
///     static var journalSealer: (any JournalSealer)? { KeychainSealer.shared }
///     // …
/// }
/// ```
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

    /// The line of `run` in the program's help; "Run a scenario, journaled so that it can be
    /// resumed" unless the program says more.
    static var runAbstract: String { get }
    /// The program's own options of `run`, each declared once: ``runOptions``, ``runUsage``
    /// and ``runOptionsHelp`` are made from them unless the program gives those itself. None
    /// unless the program has options.
    static var declaredRunOptions: [CommandOption] { get }
    /// The arguments of `run` in its usage line, the runnable first (`<auth|app|OPNAME>`,
    /// `[--phone NUMBER]`); the runner adds its own options after them. The scenarios' names
    /// (`<checkout>`) unless the program says more.
    static var runUsage: [String] { get }
    /// The paragraphs of `help run` between its usage line and its options: what a run does.
    static var runDiscussion: String { get }
    /// The lines of the program's own options under `OPTIONS:` of `help run`
    /// (``HelpText/option(_:_:)``); the runner adds `--state-dir` and `--json`. None unless the
    /// program has options.
    static var runOptionsHelp: [String] { get }
    /// The whole `help run` text; laid out from the parts above unless replaced.
    static var runHelp: String { get }
    /// The program's own flags and options of `run`; the runner adds `--state-dir` and `--json`.
    /// None unless the program has options.
    static var runOptions: ArgumentSpec { get }

    /// The line of `rerun` in the program's help.
    static var rerunAbstract: String { get }
    /// The program's own options of `rerun`, each declared once: ``rerunOptions``,
    /// ``rerunUsage`` and ``rerunOptionsHelp`` are made from them unless the program gives those
    /// itself. None unless the program has options.
    static var declaredRerunOptions: [CommandOption] { get }
    /// The program's own arguments of `rerun` in its usage line, after `RUN_ID`; the runner adds
    /// its own options after them. None unless the program has options.
    static var rerunUsage: [String] { get }
    /// The paragraphs of `help rerun` between its usage line and its options; what every rerun
    /// does (``RerunScenario/replayParagraph``) unless the program says more.
    static var rerunDiscussion: String { get }
    /// The lines of the program's own options under `OPTIONS:` of `help rerun`; the runner adds
    /// `--relaunch-in-doubt`, `--state-dir` and `--json`.
    static var rerunOptionsHelp: [String] { get }
    /// The whole `help rerun` text; laid out from the parts above unless replaced.
    static var rerunHelp: String { get }
    /// The program's own flags and options of `rerun`; the runner adds `--state-dir`, `--json`
    /// and `--relaunch-in-doubt`. None unless the program has options.
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

// MARK: - Default implementations

extension LaunchingProgram {
    /// "Run a scenario, journaled so that it can be resumed".
    public static var runAbstract: String { "Run a scenario, journaled so that it can be resumed" }

    /// No options of the program's own.
    public static var declaredRunOptions: [CommandOption] { [] }

    /// `<NAME|NAME>`, the names ``RunnerProgram/scenarios`` lists, then ``declaredRunOptions``.
    public static var runUsage: [String] {
        ["<\(scenarios.map(\.name).joined(separator: "|"))>"] + declaredRunOptions.map(\.usage)
    }

    /// What every run does: it is journaled and can be resumed.
    public static var runDiscussion: String {
        """
        Runs one of what '\(name) ops' lists. Every run is journaled and gets an id; a run that
        fails or is interrupted can be resumed with '\(name) rerun ID'.
        """
    }

    /// The help lines of ``declaredRunOptions``.
    public static var runOptionsHelp: [String] { declaredRunOptions.map(\.helpLine) }

    /// What ``declaredRunOptions`` accept.
    public static var runOptions: ArgumentSpec { ArgumentSpec(declaredRunOptions) }

    /// The usage line, ``runDiscussion``, the options (the program's, then the runner's), the
    /// progress sentence and the exit statuses.
    public static var runHelp: String {
        commandHelp(
            "run", usage: runUsage + RunScenario<Self>.runnerOptions.map(\.usage), discussion: runDiscussion,
            options: runOptionsHelp + RunScenario<Self>.runnerOptions.map(\.helpLine))
    }

    /// "Resume a failed or interrupted run: completed steps are replayed, the failed one runs
    /// again".
    public static var rerunAbstract: String {
        "Resume a failed or interrupted run: completed steps are replayed, the failed one runs again"
    }

    /// No options of the program's own.
    public static var declaredRerunOptions: [CommandOption] { [] }

    /// ``declaredRerunOptions`` as usage arguments.
    public static var rerunUsage: [String] { declaredRerunOptions.map(\.usage) }

    /// ``RerunScenario/replayParagraph``.
    public static var rerunDiscussion: String { RerunScenario<Self>.replayParagraph }

    /// The help lines of ``declaredRerunOptions``.
    public static var rerunOptionsHelp: [String] { declaredRerunOptions.map(\.helpLine) }

    /// What ``declaredRerunOptions`` accept.
    public static var rerunOptions: ArgumentSpec { ArgumentSpec(declaredRerunOptions) }

    /// The usage line, ``rerunDiscussion``, the options (the program's, then the runner's), the
    /// progress sentence and the exit statuses.
    public static var rerunHelp: String {
        commandHelp(
            "rerun", usage: ["RUN_ID"] + rerunUsage + RerunScenario<Self>.runnerOptions.map(\.usage),
            discussion: rerunDiscussion, options: rerunOptionsHelp + RerunScenario<Self>.runnerOptions.map(\.helpLine))
    }

    /// A launching command's help, laid out as the runner lays out `run` and `rerun`.
    private static func commandHelp(_ command: String, usage: [String], discussion: String, options: [String])
        -> String
    {
        """
        \(HelpText.usage("\(name) \(command)", usage))

        \(discussion)

        OPTIONS:
        \(options.joined(separator: "\n"))

        Progress goes to standard error, one line per step; the result to standard output.

        \(ExitStatus.helpSection(exitStatuses))
        """
    }
}
