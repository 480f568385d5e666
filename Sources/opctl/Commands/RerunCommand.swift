import AuthFlow
import Foundation
import Operations
import OperationsRunner

/// `opctl rerun RUN_ID`: resumes a failed or interrupted run from its journal.
enum RerunCommand: Command {
    static let name = "rerun"
    static let abstract = "Resume a failed or interrupted run: completed steps are replayed, the failed one runs again"
    static let help = """
        USAGE: opctl rerun RUN_ID [--code CODE | --code-stdin] [--accept-terms | --decline-terms]
                              [--phone NUMBER] [--relaunch-in-doubt] [--backend SPEC] [--state-dir DIR] [--json]

        Steps that completed are replayed from the run's journal — their operations are not
        launched again — and the failed or interrupted step is launched again with the same
        input. A run that already succeeded is left alone.

        A step that makes the backend act (sends the SMS, verifies the code, accepts the terms)
        and was in flight when the run stopped is repeated with the idempotency key of that
        attempt, so the backend answers the repeat instead of acting twice. Saving the token is
        always done again (the file may have been deleted since).

        OPTIONS:
          --code CODE            The SMS code, when the code step runs again
          --code-stdin           Read the SMS code from the first line of standard input
          --accept-terms         Accept the terms of use if they are shown
          --decline-terms        Decline them
          --phone NUMBER         The phone number, when the run's journal has none (a run
                                 stopped before it recorded one); a run keeps the number it has
          --relaunch-in-doubt    Launch a step with side effects left in doubt even though the
                                 journal has no idempotency key for it (it may act twice)
        \(CommonOptions.backendHelp)
                                 (default: the backend the run used)
        \(CommonOptions.stateDirHelp)
        \(CommonOptions.jsonHelp)
        """
    static let spec = ArgumentSpec(
        flags: ["--accept-terms", "--decline-terms", "--code-stdin", "--relaunch-in-doubt", "--json"],
        options: ["--code", "--phone", "--backend", "--state-dir"], maxPositionals: 1)

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard let id = arguments.positionals.first else {
            throw UsageError("missing the run id (see 'opctl runs')", command: name)
        }
        let stateDirectory = StateDirectory.resolve(
            option: arguments.value("--state-dir"), environment: console.environment)
        let store = RunStore(stateDirectory: stateDirectory)
        let runID = try RunLookup.id(id, program: Opctl.name)
        // Damaged lines are skipped, as the resume will: the run goes on from what is intact,
        // and a step with side effects the damage could hide stops it (exit 2).
        let record = try RunLookup.record(runID, in: store, skippingDamage: true, program: Opctl.name)
        for damaged in record.damagedLines {
            console.note("opctl: run \(runID): skipping damaged \(damaged)")
        }
        guard let runnable = RunnableScenario.named(record.scenario) else {
            throw CLIError.message("run \(runID) is of '\(record.scenario)', which this opctl cannot run")
        }
        if record.status == .succeeded {
            if arguments.has("--json") {
                let object: [String: Any] = [
                    "id": runID.description, "runId": runID.description, "scenario": runnable.name,
                    "status": "succeeded",
                    "failedStep": NSNull(), "startedAt": RunTimestamp.text(record.startedAt ?? record.createdAt),
                    "rerun": false,
                ]
                console.print(JSONText.encode(object))
            } else {
                console.print("Run \(runID) already succeeded; nothing to do.")
            }
            return ExitStatus.success
        }
        // The run goes on with the backend and terms decision it started with, unless given again.
        // A sidecar file is newer than the header: a rerun that changed the backend wrote one.
        let metadata = RunMetadata.load(next: record.url) ?? RunMetadata(settings: record.settings)
        var inputs = try ScreenInputs(arguments, console: console, command: name)
        inputs.terms = inputs.terms ?? metadata?.terms
        let backendText = arguments.value("--backend") ?? metadata?.backend ?? BackendSpec.defaultSpec
        let backend = try BackendSpec(parsing: backendText)
        try StateDirectory.prepare(stateDirectory)
        let services = SignInServices(
            backend: backend, stateDirectory: stateDirectory, screens: inputs.screens(console), console: console)
        var input: PhoneNumber?
        do throws(JournalError) {
            input = try record.input(as: PhoneNumber?.self) ?? nil
        } catch {
            throw CLIError.message("cannot resume run \(runID): \(error)")
        }
        if let given = arguments.value("--phone") {
            // A rerun finishes the run that was started; a different number is a new run.
            guard input == nil else {
                throw UsageError(
                    "run \(runID) already has its phone number; a rerun keeps the number the run started with",
                    hint: "To sign in with another number, start a new run: opctl run \(runnable.name) --phone NUMBER")
            }
            input = try RunCommand.parsePhone(given, command: name)
        }
        let journal: ScenarioJournal
        do throws(JournalError) {
            journal = try store.resume(runID, scenario: runnable.shape(services.factory))
        } catch {
            switch error {
            case .shapeMismatch, .missingShape:
                // Nothing was launched or written: the run waits for a build that matches it.
                throw UsageError(
                    "cannot resume run \(runID): \(error)",
                    hint:
                        "Resume it with the opctl build that started it, or start a new run: opctl run \(runnable.name)"
                )
            default:
                throw CLIError.message("cannot resume run \(runID): \(error)")
            }
        }
        try? RunMetadata(backend: backendText, terms: inputs.terms).save(next: journal.url)
        return SignInExecution(
            runnable: runnable, journal: journal,
            replay: journal.replay(relaunchingInDoubt: arguments.has("--relaunch-in-doubt")), services: services,
            stateDirectory: stateDirectory, stateDirectoryOption: arguments.value("--state-dir"), console: console,
            json: arguments.has("--json")
        ).run(input: input)
    }
}
