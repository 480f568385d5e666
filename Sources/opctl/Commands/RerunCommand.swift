import AuthFlow
import Foundation
import Operations
import OperationsJournal
import OperationsRunner

/// `opctl rerun RUN_ID`: the sign-in options of the runner's ``RerunScenario`` — the answers a
/// rerun may need, the phone a run stopped before recording, the backend — and the settings the
/// run started with.
extension Opctl {
    /// `rerun`'s discussion and options, each option declared once.
    static let rerunLaunch = RunnerConfiguration<PhoneNumber>.Launch(
        discussion: """
            \(RerunCommand.replayParagraph)

            A step that makes the backend act (sends the SMS, verifies the code, accepts the terms)
            and was in flight when the run stopped is repeated with the idempotency key of that
            attempt, so the backend answers the repeat instead of acting twice. Saving the token is
            always done again (the file may have been deleted since).
            """,
        options: [
            SignInOptions.code.described("The SMS code, when the code step runs again"),
            SignInOptions.codeStdin, SignInOptions.acceptTerms, SignInOptions.declineTerms.described("Decline them"),
            SignInOptions.phone.described(
                """
                The phone number, when the run's journal has none (a run
                stopped before it recorded one); a run keeps the number it has
                """),
            SignInOptions.backend.described(
                SignInOptions.backend.description + "\n(default: the backend the run used)"),
        ])

    /// Prepares `opctl rerun RUN_ID` from the run's journal, the settings it started with, and
    /// the options given again.
    @Sendable static func prepareRerun(_ request: LaunchRequest, record: JournalRecord) throws
        -> PreparedRun<PhoneNumber>
    {
        let (name, arguments, console, stateDirectory) = (
            request.runnable, request.arguments, request.console, request.stateDirectory
        )
        let command = RerunCommand.name
        guard let runnable = RunnableScenario.named(name) else { throw CLIError.message("no runnable '\(name)'") }
        let runID = record.runID
        // The run goes on with the backend and terms decision it started with, unless given again.
        // A sidecar file is newer than the header: a rerun that changed the backend wrote one.
        let metadata = RunMetadata.load(next: record.url) ?? RunMetadata(settings: record.settings)
        var inputs = try ScreenInputs(arguments, console: console, command: command)
        // A decline is not kept: the rerun of a declined run asks again (the runner has checked
        // that it is given the answer when nobody can be asked), so it never records a second
        // decline nobody made.
        inputs.terms = inputs.terms ?? metadata?.terms.flatMap { $0 == .accept ? .accept : nil }
        let backendText = arguments.value(SignInOptions.backend) ?? metadata?.backend ?? BackendSpec.defaultSpec
        let backend = try BackendSpec(parsing: backendText)
        let services = SignInServices.forRun(
            backend: backend, stateDirectory: stateDirectory, screens: inputs.screens(console), console: console)
        let given = arguments.value(SignInOptions.phone)
        let terms = inputs.terms
        let answers = inputs
        return SignInExecution.prepared(
            runnable, services: services, stateDirectory: stateDirectory, console: console,
            makeInput: {
                var input: PhoneNumber?
                do throws(JournalError) {
                    input = try record.input(as: PhoneNumber?.self) ?? nil
                } catch {
                    throw CLIError.message("cannot resume run \(runID): \(error)")
                }
                if let given {
                    // A rerun finishes the run that was started; a different number is a new run.
                    guard input == nil else {
                        throw UsageError(
                            "run \(runID) already has its phone number; a rerun keeps the number the run started with",
                            hint:
                                "To sign in with another number, start a new run: opctl run \(runnable.name) --phone NUMBER"
                        )
                    }
                    input = try parsePhone(given, command: command)
                }
                // What a plain rerun still asks the runner has checked before anything was launched
                // (SignInRerunInputs); here the code's length. A rerun from a step launches the code
                // step anew unless it starts after it; the terms decision the run started with is kept.
                let from = arguments.value(CommonOptions.rerunFrom)
                try answers.validate(
                    for: backend, needsTerms: false, needsCode: from.map { !$0.hasSuffix("SaveTokenOp") } ?? false,
                    console: console, command: command)
                return input
            },
            resumed: { journal in try? RunMetadata(backend: backendText, terms: terms).save(next: journal) })
    }
}
