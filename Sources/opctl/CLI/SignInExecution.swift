import AuthFlow
import Foundation
import Operations
import OperationsJournal
import OperationsRunner

/// A run or rerun of a sign-in runnable, prepared for the runner's ``RunScenario`` and
/// ``RerunScenario``: what is sign-in about it is here — the saved token in the output, the
/// screens' missing answers, the failures a rerun cannot help, and the phone and code a rerun
/// will need.
enum SignInExecution {
    /// The prepared run of `runnable` with `services`.
    ///
    /// - Parameters:
    ///   - settings: What a new run's journal header records.
    ///   - injection: An event to post into the run (`--event`).
    ///   - makeInput: The phone number, once the state directory is ready; the simulator's state
    ///     is prepared first, so a state opctl cannot keep stops the run before its journal.
    ///   - resumed: Called with a rerun's resumed journal.
    static func prepared(
        _ runnable: RunnableScenario, services: SignInServices, stateDirectory: URL, console: Console,
        settings: [String: String] = [:], injection: EventInjection? = nil,
        makeInput: @escaping @Sendable () throws -> PhoneNumber?,
        resumed: @escaping @Sendable (URL) -> Void = { _ in }
    ) -> PreparedRun<PhoneNumber> {
        let savedTo = SignInServices.tokenFile(in: stateDirectory).path
        let factory = services.factory
        let screens = services.screens
        let reading: @Sendable (RunFailure) -> FailureReading = {
            explain($0, runnable: runnable, screens: screens)
        }
        let simulatorState = services.simulatorState
        let input: @Sendable () throws -> PhoneNumber? = {
            try simulatorState?.prepare()
            return try makeInput()
        }
        return PreparedRun(
            shape: runnable.shape(factory), settings: settings, explain: reading, makeInput: input,
            resumed: resumed
        ) { context, onFinish in
            let context = injection?.injecting(into: context, factory: factory, services: services) ?? context
            runnable.launch(factory, context) { result in
                // What the token file holds once the run is over: an event's reaction (new terms
                // accepted at the end) may have saved a refreshed token after the run's own.
                let saved = (try? factory.storage.loadAuthToken()) ?? nil
                onFinish(result.map { outcome($0, saved: saved, savedTo: savedTo) })
            }
        }
    }

    /// The sentence, and the token saved with where it was saved: the one the token file holds
    /// (`saved`), which is the run's own unless something saved a newer one after it.
    private static func outcome(_ outcome: RunnableScenario.Success, saved: AuthToken?, savedTo: String)
        -> RunOutcome
    {
        guard let token = outcome.token.map({ saved ?? $0 }) else { return RunOutcome(sentence: outcome.sentence) }
        return RunOutcome(
            sentence: outcome.sentence, lines: ["Auth token \(token.redacted) saved to \(savedTo)"],
            jsonFields: ["token": token.redacted, "savedTo": savedTo])
    }

    /// How a sign-in that did not succeed reads: input the screens could not get is a usage
    /// error; a cancellation is the sign-in's; a failure that outlives the run says so. The way on
    /// (the rerun with the inputs it needs, or what to do instead) is the runner's, read from the
    /// journal with ``SignInRerunInputs``, as `show` reads it.
    private static func explain(
        _ failure: RunFailure, runnable: RunnableScenario, screens: TerminalScreens
    ) -> FailureReading {
        var reading = failure.reading
        guard failure.kind != .interrupted && failure.kind != .journalFailed else { return reading }
        // A screen that could not ask (no terminal) is what ended the run, whatever the step says.
        if let inputError = screens.inputError { return .missingInput(inputError, program: Opctl.name) }
        guard let cause = failure.cause else { return reading }
        switch failure.kind {
        case .cancelled:
            reading.message =
                cause is SignedOutElsewhere
                ? "signed out: \(cause); the saved sign-in was deleted" : "sign-in cancelled: \(cause)"
        case .failed:
            if let authError = cause as? AuthError, authError.outlivesTheRun {
                reading.message =
                    "\(failure.step) failed\(authError.endsTheAttempt ? failure.afterAttempts : ""): \(cause)"
            } else {
                reading.hint = runnable.failureHint
            }
        case .cannotResume, .interrupted, .journalFailed:
            break
        }
        return reading
    }
}

extension AuthError {
    /// Whether the sign-in attempt cannot go on: its phone token expired, or the number is locked.
    fileprivate var endsTheAttempt: Bool {
        switch self {
        case .unauthorized, .locked: true
        default: false
        }
    }

    /// Whether a rerun cannot help: the attempt ended, the number was rejected, or the terms
    /// changed under the run (``SignInRerunInputs/rerunCannotHelp(_:)`` says what can).
    fileprivate var outlivesTheRun: Bool {
        switch self {
        case .invalidPhone, .termsOutdated: true
        default: endsTheAttempt
        }
    }
}
