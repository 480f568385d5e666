import AuthFlow
import Foundation
import Operations
import OperationsRunner

/// `opctl run auth|app|OPNAME`: the sign-in options of the runner's ``RunScenario`` — the phone,
/// the screens' answers and the backend — and how they make a run.
extension Opctl {
    /// `run`'s line, usage operand, discussion and options, each option declared once.
    static let runLaunch = RunnerConfiguration<PhoneNumber>.Launch(
        abstract: "Run the sign-in scenario, the app scenario, or one operation",
        operand: "<auth|app|sign-out|OPNAME>",
        discussion: """
            Runs AuthScenario (auth), AppScenario (app), SignOutOp (sign-out) or one operation (see
            'opctl ops') against the embedded simulated backend or a real server. Every run is journaled and gets an id; a run
            that fails or is interrupted can be resumed with 'opctl rerun ID'.

            Where a value is missing and standard input is a terminal, opctl asks for it. Otherwise it
            never prompts, and a missing value is a usage error.
            """,
        options: [
            SignInOptions.phone, SignInOptions.acceptTerms, SignInOptions.declineTerms, SignInOptions.code,
            SignInOptions.codeStdin, SignInOptions.backend,
            EventInjection.option,
        ])

    /// Prepares `opctl run NAME` from its options: a usage error before anything starts for
    /// what the run could not use or ask for.
    @Sendable static func prepareRun(_ request: LaunchRequest) throws -> PreparedRun<PhoneNumber> {
        let (name, arguments, console, stateDirectory) = (
            request.runnable, request.arguments, request.console, request.stateDirectory
        )
        let command = RunCommand.name
        guard let runnable = RunnableScenario.named(name) else { throw CLIError.message("no runnable '\(name)'") }
        let phone = try arguments.value(SignInOptions.phone).map { try parsePhone($0, command: command) }
        let inputs = try ScreenInputs(arguments, console: console, command: command)
        let backendText = arguments.value(SignInOptions.backend) ?? BackendSpec.defaultSpec
        let backend = try BackendSpec(parsing: backendText)
        let injection = try arguments.value(EventInjection.option).map {
            try EventInjection(parsing: $0, command: command)
        }
        if injection != nil && runnable.name != "app" {
            throw UsageError("--event: only 'opctl run app' reacts to events from outside", command: command)
        }
        if let injection {
            let shape = SignInServices.shapeOnlyFactory(stateDirectory: stateDirectory, console: console)
                .makeAppScenario().shape
            try injection.validate(against: shape, command: command)
        }
        // `app` signs in only when there is no saved sign-in; then it needs the same answers as `auth`.
        let signsIn =
            runnable.name == "auth"
            || (runnable.name == "app"
                && !FileManager.default.fileExists(atPath: SignInServices.tokenFile(in: stateDirectory).path))
        if phone == nil && !console.inputIsTerminal && (signsIn || runnable.name == "PhoneOp") {
            throw UsageError(
                "missing --phone NUMBER (standard input is not a terminal, so opctl cannot ask)", command: command)
        }
        try inputs.validate(
            for: backend, needsTerms: signsIn, needsCode: signsIn, console: console, command: command)
        let services = SignInServices.forRun(
            backend: backend, stateDirectory: stateDirectory, screens: inputs.screens(console), console: console)
        // The backend and terms decision are durable with the journal's header.
        return SignInExecution.prepared(
            runnable, services: services, stateDirectory: stateDirectory, console: console,
            settings: RunMetadata.settings(backend: backendText, terms: inputs.terms), injection: injection,
            makeInput: { phone })
    }

    /// `--phone NUMBER`, for `run` and `rerun` alike; a bad number is a usage error of `command`.
    static func parsePhone(_ text: String, command: String) throws -> PhoneNumber {
        do {
            return try PhoneNumber(parsing: text)
        } catch {
            throw UsageError("--phone: \(error.description)", command: command)
        }
    }
}
