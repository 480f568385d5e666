import AuthFlow
import Foundation
import Operations
import OperationsRunner

/// `opctl run auth|app|OPNAME`: runs a scenario or one operation, journaled.
enum RunCommand: Command {
    static let name = "run"
    static let abstract = "Run the sign-in scenario, the app scenario, or one operation"
    static let help = """
        USAGE: opctl run <auth|app|sign-out|OPNAME> [--phone NUMBER] [--accept-terms | --decline-terms]
                         [--code CODE | --code-stdin] [--backend SPEC] [--state-dir DIR] [--json]

        Runs AuthScenario (auth), AppScenario (app), SignOutOp (sign-out) or one operation (see
        'opctl ops') against the embedded simulated backend or a real server. Every run is journaled and gets an id; a run
        that fails or is interrupted can be resumed with 'opctl rerun ID'.

        Where a value is missing and standard input is a terminal, opctl asks for it. Otherwise it
        never prompts, and a missing value is a usage error.

        OPTIONS:
          --phone NUMBER         The phone number, e.g. '+7 999 123-45-67'
          --accept-terms         Accept the terms of use if they are shown
          --decline-terms        Decline them (the run ends as cancelled, exit 3)
          --code CODE            The SMS code
          --code-stdin           Read the SMS code from the first line of standard input
        \(CommonOptions.backendHelp)
        \(CommonOptions.stateDirHelp)
        \(CommonOptions.jsonHelp)

        Progress goes to standard error, one line per step; the result to standard output.
        EXIT STATUS: 0 success, 1 the run failed, 2 usage or input error, 3 terms declined or
        cancelled, 130 interrupted (Ctrl-C).
        """
    static let spec = ArgumentSpec(
        flags: ["--accept-terms", "--decline-terms", "--code-stdin", "--json"],
        options: ["--phone", "--code", "--backend", "--state-dir"], maxPositionals: 1)

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard let target = arguments.positionals.first else {
            throw UsageError("missing what to run: auth, app or an operation (see 'opctl ops')", command: name)
        }
        guard let runnable = RunnableScenario.named(target) else {
            throw UsageError(
                "unknown scenario or operation '\(ParsedArguments.clip(target))' (see 'opctl ops')", command: name)
        }
        let phone = try arguments.value("--phone").map { try parsePhone($0, command: name) }
        let inputs = try ScreenInputs(arguments, console: console, command: name)
        let backendText = arguments.value("--backend") ?? BackendSpec.defaultSpec
        let backend = try BackendSpec(parsing: backendText)
        let stateDirectory = StateDirectory.resolve(
            option: arguments.value("--state-dir"), environment: console.environment)
        // `app` signs in only when there is no saved sign-in; then it needs the same answers as `auth`.
        let signsIn =
            runnable.name == "auth"
            || (runnable.name == "app"
                && !FileManager.default.fileExists(atPath: SignInServices.tokenFile(in: stateDirectory).path))
        if phone == nil && !console.inputIsTerminal && (signsIn || runnable.name == "PhoneOp") {
            throw UsageError(
                "missing --phone NUMBER (standard input is not a terminal, so opctl cannot ask)", command: name)
        }
        try inputs.validate(for: backend, needsAnswers: signsIn, console: console, command: name)

        try StateDirectory.prepare(stateDirectory)
        let services = SignInServices(
            backend: backend, stateDirectory: stateDirectory, screens: inputs.screens(console), console: console)
        let journal: ScenarioJournal
        do throws(JournalError) {
            // The backend and terms decision are durable with the header: no sidecar file to lose.
            journal = try RunStore(stateDirectory: stateDirectory).create(
                scenario: runnable.shape(services.factory),
                settings: RunMetadata.settings(backend: backendText, terms: inputs.terms),
                input: phone)
        } catch {
            throw CLIError.message("cannot start a run: \(error)")
        }
        return SignInExecution(
            runnable: runnable, journal: journal, replay: nil, services: services, stateDirectory: stateDirectory,
            stateDirectoryOption: arguments.value("--state-dir"), console: console, json: arguments.has("--json")
        ).run(input: phone)
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

/// The answers for the screens given on the command line.
struct ScreenInputs {
    /// The terms decision; a rerun fills it from the run's metadata when not given again.
    var terms: TerminalScreens.TermsDecision?
    let codes: [String]
    let command: String

    init(_ arguments: ParsedArguments, console: Console, command: String) throws {
        self.command = command
        switch (arguments.has("--accept-terms"), arguments.has("--decline-terms")) {
        case (true, true): throw UsageError("--accept-terms and --decline-terms exclude each other", command: command)
        case (true, false): terms = .accept
        case (false, true): terms = .decline
        case (false, false): terms = nil
        }
        if arguments.has("--code-stdin") {
            guard arguments.value("--code") == nil else {
                throw UsageError("--code and --code-stdin exclude each other", command: command)
            }
            guard let line = console.readLine() else {
                throw UsageError("--code-stdin: standard input is empty", command: command)
            }
            codes = [line.trimmingCharacters(in: .whitespaces)]
        } else {
            codes = arguments.value("--code").map { [$0] } ?? []
        }
        for code in codes where !(4...12).contains(code.count) || !code.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw UsageError("--code: the SMS code has digits only (4 to 12 of them)", command: command)
        }
    }

    /// Checks the answers against what the embedded simulator is known to ask, so a code of the
    /// wrong length or a missing answer is a usage error before any run starts. A real server
    /// says what it asks only while the run goes on.
    ///
    /// - Parameter needsAnswers: Whether the run will show the terms and code screens (a new
    ///   sign-in), so a missing answer without a terminal can be reported now.
    func validate(for backend: BackendSpec, needsAnswers: Bool, console: Console, command: String) throws {
        guard case .simulator(let options) = backend else { return }
        for code in codes where code.count != options.code.count {
            throw UsageError("--code: The code from the SMS has \(options.code.count) digits.", command: command)
        }
        guard needsAnswers, !console.inputIsTerminal else { return }
        if options.termsRequired && terms == nil {
            throw UsageError(
                "missing --accept-terms or --decline-terms (the backend shows terms of use; standard input is not a terminal, so opctl cannot ask)",
                command: command)
        }
        if codes.isEmpty && !(options.termsRequired && terms == .decline) {
            throw UsageError(
                "missing --code CODE or --code-stdin (standard input is not a terminal, so opctl cannot ask)",
                command: command)
        }
    }

    func screens(_ console: Console) -> TerminalScreens {
        TerminalScreens(console: console, terms: terms, codes: codes, command: command)
    }
}
