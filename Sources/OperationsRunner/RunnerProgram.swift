public import Foundation
public import Operations

/// A program built on the runner, as the generic commands (`runs`, `show`, `prune`, `check`,
/// `ops`) need to know it: its name and what it can run. A program declares one conforming type
/// and puts the commands, specialised to it, in its command table. Its metatype is sendable
/// because the commands use it inside closures.
public protocol RunnerProgram: SendableMetatype {
    /// The program's name as typed: in usage lines, hints, messages and the state directory.
    static var name: String { get }
    /// What the program can run, in `ops` order; a new user is told to start the first.
    static var scenarios: [ScenarioListing] { get }
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
}

extension RunnerProgram {
    /// The state directory a command line names: `--state-dir`, else the program's variable.
    static func stateDirectory(_ arguments: ParsedArguments, _ console: Console) -> URL {
        StateDirectory.resolve(option: arguments.value("--state-dir"), environment: console.environment, program: name)
    }

    /// The help line of `--state-dir` with the program's variable and folder.
    static var stateDirHelp: String { CommonOptions.stateDirHelp(program: name) }
}
