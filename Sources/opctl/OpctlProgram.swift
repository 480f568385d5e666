import AuthFlow
import AuthFlowTesting
import Foundation
import Operations
import OperationsRunner

/// opctl as the runner knows it: its name (``Opctl/name``), the sign-in catalog, the shapes
/// `check` compares journals with (made by a factory whose operations are never launched), and
/// the phone number every runnable is launched with; `run` and `rerun` prepare their runs in
/// RunCommand.swift and RerunCommand.swift.
extension Opctl: LaunchingProgram {
    typealias Input = PhoneNumber

    static let runnablesInWords = "auth, app or an operation"

    static func runnableName(_ typed: String) -> String? { RunnableScenario.named(typed)?.name }

    static var scenarios: [ScenarioListing] {
        RunnableScenario.all.map { ScenarioListing(name: $0.name, summary: $0.summary, isScenario: $0.isScenario) }
    }

    static let scenarioNamesHelp = "auth, app, or an operation's name"

    /// The sign-in's flows over the simulator, for `opctl explore`.
    static var explorations: [Exploration] {
        [
            Exploration("auth", summary: "AuthScenario: phone, terms, code", flow: SignInExploration.signIn),
            Exploration("app", summary: "AppScenario from a cold start", flow: SignInExploration.app),
            Exploration("sign-out", summary: "SignOutOp with a saved sign-in", flow: SignInExploration.signOut),
        ]
    }

    /// opctl also draws what it runs.
    static let scenariosHelp = "Lists what 'opctl run' launches and 'opctl diagram' draws, one line each."

    static func shapes(stateDirectory: URL, console: Console) -> [ScenarioShape] {
        let factory = SignInServices.shapeOnlyFactory(stateDirectory: stateDirectory, console: console)
        return RunnableScenario.all.map { $0.shape(factory) }
    }

    /// The drafts of the saved sign-in a process killed while saving it left: each may hold a
    /// live access token. Opening the storage removes them, and keeps one a live process writes.
    static func removeAbandonedDrafts(in stateDirectory: URL) {
        FileLocalStorage(fileURL: SignInServices.tokenFile(in: stateDirectory)).removeAbandonedDrafts()
    }
}

// The runner's commands for any program, specialised to opctl under the names its command table
// and tests use.

/// `opctl run`.
typealias RunCommand = RunScenario<Opctl>
/// `opctl rerun`.
typealias RerunCommand = RerunScenario<Opctl>
/// `opctl ops`.
typealias OpsCommand = ListScenarios<Opctl>
/// `opctl runs`.
typealias RunsCommand = ListRuns<Opctl>
/// `opctl show`.
typealias ShowCommand = ShowRun<Opctl>
/// `opctl prune`.
typealias PruneCommand = PruneRuns<Opctl>
/// `opctl check`.
typealias CheckCommand = CheckRuns<Opctl>
/// `opctl explore`.
typealias ExploreCommand = ExploreFlows<Opctl>
