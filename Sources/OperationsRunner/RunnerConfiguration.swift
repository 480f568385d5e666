public import Foundation
public import Operations
public import OperationsJournal

/// Everything a runner program says about itself, in one value: its name and help, what it
/// runs, how it prepares a run and a rerun, what it explores, and where the key of its sealed
/// values lives. A program gives it once (``RunnerProgram/configuration``) and the runner's
/// commands, help, parser and exit statuses are made from it; whatever most programs do not say
/// has a default, so a program sets only what is its own, each part by name (``with(_:)``).
///
/// ```swift
/// enum CheckoutProgram: RunnerProgram {
///     static let configuration = RunnerConfiguration(
///         name: "checkout", version: "0.1.0", overview: "Check out a cart.",
///         examples: ["checkout run checkout"],
///         scenarios: [ScenarioListing(name: "checkout", summary: "CheckoutScenario", isScenario: true)],
///         shapes: { _, _ in [CheckoutFactory(store: Store()).checkoutScenario.shape] },
///         prepareRun: { request in … }, prepareRerun: { request, record in … }
///     ).with {
///         $0.run = RunnerConfiguration.Launch(options: [coupon])
///     }
///     static let coupon = CommandOption("--coupon", value: "CODE", "A coupon")
/// }
/// ```
///
/// The screens a prepared run shows answer while the runner blocks its thread waiting for the
/// run to finish (see ``PreparedRun``): they must not need the main actor.
public struct RunnerConfiguration<Input: Codable & Sendable>: Sendable {
    /// The program's name as typed: in usage lines, hints, messages, the state directory and
    /// its environment variable (`CHECKOUT_STATE_DIR`).
    public var name: String
    /// What `--version` prints after the name.
    public var version: String
    /// The sentence after `OVERVIEW:` in the top-level help, wrapped as it should print.
    public var overview: String
    /// The command lines under `EXAMPLES:` in the top-level help.
    public var examples: [String]
    /// The command table, in the order the help lists it; `nil` for the runner's commands
    /// specialised to the program (``RunnerMain/standardCommands``). A program with commands
    /// of its own (opctl's `serve`) gives the whole table.
    public var commands: [any Command.Type]?
    /// Every status the program exits with and what it means: the one table its top-level help
    /// and `help run`/`help rerun` print. ``ExitStatus/meanings(cancelled:)`` unless the program
    /// says status 3 in its own words.
    public var exitStatuses: [ExitStatus.Meaning]
    /// What the program can run, in `ops` order; a new user is told to start the first.
    public var scenarios: [ScenarioListing]
    /// The sentence of `help ops` under its usage line.
    public var scenariosHelp: String
    /// What `runs --scenario NAME` accepts, in words for its help.
    public var scenarioNamesHelp: String
    /// The runnables in words, for the error of a `run` without one ("auth, app or an
    /// operation").
    public var runnablesInWords: String
    /// The runnable a typed name means (its aliases resolved), or `nil` when there is none.
    ///
    /// `rerun` asks it too, with the scenario name a run's journal records
    /// (``PreparedRun/shape``'s name, e.g. `CheckoutScenario`): accept that name as well as the
    /// one people type, or name the shape after the runnable.
    public var runnableName: @Sendable (_ typed: String) -> String?
    /// The shape of everything it can run, as this build would launch it and named as its
    /// journals are: what `check` compares waiting runs with, given the state directory of the
    /// check and the console (for services that need one to be built). Nothing is launched.
    public var shapes: @Sendable (_ stateDirectory: URL, _ console: Console) -> [ScenarioShape]
    /// The flows `explore` runs under every fault schedule, over simulated services.
    public var explorations: [Exploration] = []
    /// Seals the confidential values of the program's runs (`JournalSealer`): every run the
    /// runner creates or resumes seals them instead of withholding them, and every command that
    /// opens a journal (`run`, `rerun`, `show`, `check`, `diagram`, `runs`, `prune`) opens it
    /// with this one sealer, so a sealed run's values open wherever its journal is read. `nil`
    /// withholds them, and a rerun runs their steps again.
    ///
    /// Give it from where the key lives (the platform's keystore), never from the command
    /// line; a rerun opens a sealed run input with it too (``LaunchRequest/sealer``).
    public var journalSealer: (any JournalSealer)?
    /// Removes the drafts of the program's own files beside its runs that a killed process
    /// left, when they may hold secrets (opctl: the saved sign-in's); each command that opens
    /// the state directory calls it, and `RunStore` tidies the runs' own. It must keep a
    /// draft a live process still writes (`DraftFile`, in Sources/OperationsJournal/DraftFile.swift,
    /// is one way).
    public var removeAbandonedDrafts: @Sendable (_ stateDirectory: URL) -> Void = { _ in }
    /// The help and options of `run`.
    public var run = Launch()
    /// The help and options of `rerun`.
    public var rerun = Launch()
    /// Prepares a new run from its command line, touching no file; throws ``UsageError`` for
    /// options it cannot use.
    public var prepareRun: @Sendable (_ request: LaunchRequest) throws -> PreparedRun<Input>
    /// Prepares the rerun of a run from its journal and the command line; throws
    /// ``UsageError`` for options it cannot use.
    public var prepareRerun: @Sendable (_ request: LaunchRequest, _ record: JournalRecord) throws -> PreparedRun<Input>
    /// The inputs the program's steps ask for that a journal does not keep, each with the
    /// `rerun` option that supplies it: the hint a run ends with (and `show`, `runs --json`)
    /// asks for those its rerun needs, and `rerun` checks for them before it launches anything.
    public var rerunInputs: [RerunInput] = []
    /// The endings a rerun cannot help, read from the journal: what to do instead (a new run
    /// with other input), or `nil` when a rerun can go on. The end of the run, `show` and
    /// `runs --json` all ask it, so they agree.
    public var rerunCannotHelp: @Sendable (_ record: JournalRecord) -> String? = { _ in nil }

    /// Describes a program by what it cannot do without: its name and top-level help, what it
    /// runs, and how it prepares a run and a rerun. Every other part has the runner's default
    /// and is set by name afterwards (``with(_:)``). Each part is as its property says; the help
    /// sentences, ``runnablesInWords`` and ``runnableName`` default to the names of `scenarios`.
    public init(
        name: String, version: String, overview: String, examples: [String], scenarios: [ScenarioListing],
        shapes: @escaping @Sendable (_ stateDirectory: URL, _ console: Console) -> [ScenarioShape],
        prepareRun: @escaping @Sendable (_ request: LaunchRequest) throws -> PreparedRun<Input>,
        prepareRerun:
            @escaping @Sendable (_ request: LaunchRequest, _ record: JournalRecord) throws -> PreparedRun<Input>
    ) {
        let names = scenarios.map(\.name)
        self.name = name
        self.version = version
        self.overview = overview
        self.examples = examples
        self.exitStatuses = ExitStatus.meanings(cancelled: "the run cancelled")
        self.scenarios = scenarios
        self.scenariosHelp = "Lists what '\(name) run' launches, one line each."
        self.scenarioNamesHelp = Self.inWords(names)
        self.runnablesInWords = Self.inWords(names)
        self.runnableName = { names.contains($0) ? $0 : nil }
        self.shapes = shapes
        self.prepareRun = prepareRun
        self.prepareRerun = prepareRerun
    }

    /// This configuration with the parts `change` sets: how a program says what it does not
    /// leave to the runner, each part by its name.
    ///
    /// ```swift
    /// RunnerConfiguration(name: "checkout", …).with {
    ///     $0.run = RunnerConfiguration.Launch(abstract: "Check out a cart", options: [coupon])
    ///     $0.explorations = [Exploration("checkout", summary: "…", flow: checkoutFlow)]
    /// }
    /// ```
    public func with(_ change: (inout Self) -> Void) -> Self {
        var configuration = self
        change(&configuration)
        return configuration
    }

    /// How to go on with `record` (``RunHint``), the `--state-dir` given repeated in the command;
    /// `nil` for a run that succeeded or is running.
    public func hint(for record: JournalRecord, stateDirectoryOption: String?) -> RunHint? {
        RunHint.of(
            record, program: name, inputs: rerunInputs, cannotHelp: rerunCannotHelp,
            stateDirectoryOption: stateDirectoryOption, sealer: journalSealer)
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func inWords(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The program's run store in `stateDirectory`, with its ``journalSealer``: the one way the
    /// runner's commands open journals.
    func runStore(_ stateDirectory: URL) -> RunStore {
        var store = RunStore(stateDirectory: stateDirectory, sealer: journalSealer)
        // What a finished run's hint rests on, kept in the index by the listing that reads its
        // journal, so `runs --json` reads no journal for it. A run without an end has none: its
        // hint depends on whether it is still running, which the index never keeps.
        let (inputs, cannotHelp, sealer) = (rerunInputs, rerunCannotHelp, journalSealer)
        store.listingNote = { record in
            guard record.finishedAt != nil else { return nil }
            return RunHint.Basis(record, inputs: inputs, cannotHelp: cannotHelp, sealer: sealer)?.note
        }
        return store
    }

    /// The state directory a command line names (`--state-dir`, else the program's variable),
    /// opened: the drafts of the program's files a killed process left are removed
    /// (``removeAbandonedDrafts``).
    func stateDirectory(_ arguments: ParsedArguments, _ console: Console) -> URL {
        let directory = StateDirectory.resolve(
            option: stateDirectoryOption(arguments), environment: console.environment, program: name)
        removeAbandonedDrafts(directory)
        return directory
    }

    /// The `--state-dir` given, if any: repeated in the commands a hint suggests.
    func stateDirectoryOption(_ arguments: ParsedArguments) -> String? { arguments.value(stateDir) }

    /// `--state-dir DIR` with the program's variable and folder: the runner's commands take it,
    /// and so does a program's own command that opens its runs (opctl's `diagram --run`).
    public var stateDir: CommandOption { CommonOptions.stateDir(program: name) }
}

extension RunnerConfiguration {
    /// What a program says about its `run` or its `rerun`: the line in the command list, the
    /// paragraphs of its help, and its own options, each declared once (``CommandOption``) —
    /// the parser, the usage line and the help lines are made from them, and the runner adds
    /// its own options, the progress sentence and the exit statuses.
    public struct Launch: Sendable {
        /// The line in the program's command list; the runner's when `nil`.
        public var abstract: String?
        /// What names the runnable in `run`'s usage line (`<auth|app|OPNAME>`); the scenarios'
        /// names when `nil`. `rerun` takes `RUN_ID` and ignores it.
        public var operand: String?
        /// The paragraphs between the usage line and the options; the runner's when `nil`.
        public var discussion: String?
        /// The program's own options, in usage and help order.
        public var options: [CommandOption]

        /// Describes `run` or `rerun`, each part as its property says; every part defaults to
        /// the runner's.
        public init(
            abstract: String? = nil, operand: String? = nil, discussion: String? = nil, options: [CommandOption] = []
        ) {
            self.abstract = abstract
            self.operand = operand
            self.discussion = discussion
            self.options = options
        }
    }
}

/// What a program is given to prepare a run or a rerun: the runnable, the command line, the
/// streams, the state directory, and the sealer its journals are opened with.
public struct LaunchRequest: Sendable {
    /// The runnable, as ``RunnerConfiguration/runnableName`` resolved it.
    public let runnable: String
    /// The command line, parsed with the program's options and the runner's.
    public let arguments: ParsedArguments
    /// The streams and environment.
    public let console: Console
    /// The state directory the run is kept in.
    public let stateDirectory: URL
    /// The program's sealer (``RunnerConfiguration/journalSealer``), to open a sealed run
    /// input with (`record.input(as:sealer:)`).
    public let sealer: (any JournalSealer)?
}
