import AuthFlow
import AuthFlowTesting
import Foundation
import Operations
import OperationsRunner

/// opctl as the runner knows it, said once: its command table and help, the sign-in catalog,
/// the shapes `check` compares journals with (made by a factory whose operations are never
/// launched), the flows `explore` runs, and the phone number every runnable is launched with;
/// `run` and `rerun` prepare their runs in RunCommand.swift and RerunCommand.swift.
extension Opctl: RunnerProgram {
    static let configuration = RunnerConfiguration(
        name: name, version: version,
        overview: """
            Run operations and scenarios of the Operations engine: the phone sign-in
            against an embedded simulated backend or a real server, journaled and resumable.
            """,
        examples: [
            "opctl run auth --phone '+7 999 123-45-67' --accept-terms --code 123456",
            "opctl run auth --phone +79991234567 --accept-terms --code 000000 --backend 'sim:?fail=phone:1'",
            "opctl rerun RUN_ID --code 123456",
            "opctl explore auth --max-faults 2",
            "opctl serve --port 8080        # then: opctl run auth ... --backend http://127.0.0.1:8080",
        ],
        scenarios: RunnableScenario.all.map {
            ScenarioListing(name: $0.name, summary: $0.summary, isScenario: $0.isScenario)
        },
        shapes: { stateDirectory, console in
            let factory = SignInServices.shapeOnlyFactory(stateDirectory: stateDirectory, console: console)
            return RunnableScenario.all.map { $0.shape(factory) }
        },
        prepareRun: prepareRun, prepareRerun: prepareRerun
    ).with { program in
        program.commands = [
            RunCommand.self, RerunCommand.self, RunsCommand.self, ShowCommand.self, PruneCommand.self,
            CheckCommand.self, ExploreCommand.self, DiagramCommand.self, UICommand.self, OpsCommand.self,
            ServeCommand.self,
        ]
        // A sign-in also ends as cancelled when the terms are declined.
        program.exitStatuses = ExitStatus.meanings(cancelled: "terms declined or the run cancelled")
        // opctl also draws what it runs.
        program.scenariosHelp = "Lists what 'opctl run' launches and 'opctl diagram' draws, one line each."
        program.scenarioNamesHelp = "auth, app, or an operation's name"
        program.runnablesInWords = "auth, app or an operation"
        program.runnableName = { RunnableScenario.named($0)?.name }
        // The sign-in's flows over the simulator, and one of the engine's generic parts.
        program.explorations = [
            Exploration("auth", summary: "AuthScenario: phone, terms, code", flow: SignInExploration.signIn),
            Exploration("app", summary: "AppScenario from a cold start", flow: SignInExploration.app),
            Exploration("sign-out", summary: "SignOutOp with a saved sign-in", flow: SignInExploration.signOut),
            // Beyond a chain: what the engine's own explorations cover, in the command a team runs.
            Exploration(
                "order",
                summary: "OrderScenario: an undoable reservation, a parallel charge and receipt, a polled settlement",
                flow: CompositionExploration.orderFlow),
        ]
        // The drafts of the saved sign-in a process killed while saving it left: each may hold a
        // live access token. Opening the storage removes them, and keeps one a live process writes.
        program.removeAbandonedDrafts = {
            FileLocalStorage(fileURL: SignInServices.tokenFile(in: $0)).removeAbandonedDrafts()
        }
        program.run = runLaunch
        program.rerun = rerunLaunch
        program.rerunInputs = SignInRerunInputs.declared
        program.rerunCannotHelp = SignInRerunInputs.rerunCannotHelp
    }
}

// The runner's commands for any program, specialised to opctl under the names its command table
// and tests use.

typealias RunCommand = RunScenario<Opctl>
typealias RerunCommand = RerunScenario<Opctl>
typealias OpsCommand = ListScenarios<Opctl>
typealias RunsCommand = ListRuns<Opctl>
typealias ShowCommand = ShowRun<Opctl>
typealias PruneCommand = PruneRuns<Opctl>
typealias CheckCommand = CheckRuns<Opctl>
typealias ExploreCommand = ExploreFlows<Opctl>
typealias UICommand = ServeRuns<Opctl>
