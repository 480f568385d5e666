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
        let (screens, inputIsTerminal) = (services.screens, console.inputIsTerminal)
        let reading: @Sendable (RunFailure) -> FailureReading = {
            explain($0, runnable: runnable, screens: screens, inputIsTerminal: inputIsTerminal)
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
    /// error; a cancellation is the sign-in's; some failures outlive the run, so the hint says
    /// what to do instead of rerunning; a rerun is offered with the phone and code it will need.
    private static func explain(
        _ failure: RunFailure, runnable: RunnableScenario, screens: TerminalScreens, inputIsTerminal: Bool
    ) -> FailureReading {
        var reading = reading(of: failure, runnable: runnable, screens: screens)
        var words: [String] = []
        let record = failure.record
        if phoneMissing(record, runnable: runnable.name, inputIsTerminal: inputIsTerminal) {
            words.append("--phone NUMBER")
        }
        if reading.failedStep == "CodeOp" || codeStepStillToRun(record, runnable: runnable.name) {
            words.append("--code CODE")
        }
        reading.rerunArguments = words
        return reading
    }

    /// The reading of `failure` in the sign-in's words, before the rerun's arguments.
    private static func reading(of failure: RunFailure, runnable: RunnableScenario, screens: TerminalScreens)
        -> FailureReading
    {
        let name = runnable.name
        var reading = failure.reading
        guard failure.kind != .interrupted && failure.kind != .journalFailed else { return reading }
        // A screen that could not ask (no terminal) is what ended the run, whatever the step says.
        if let inputError = screens.inputError { return .missingInput(inputError, program: Opctl.name) }
        guard let cause = failure.cause else { return reading }
        switch failure.kind {
        case .cancelled:
            // Signed out elsewhere ends the flow for good: a rerun would replay a session check
            // that found someone signed in.
            if cause is SignedOutElsewhere {
                reading.message = "signed out: \(cause); the saved sign-in was deleted"
                reading.hint = "Sign in again: opctl run \(name)"
                reading.rerunnable = false
            } else {
                reading.message = "sign-in cancelled: \(cause)"
            }
        case .failed:
            if let final = explain(cause, step: failure.step, attempts: failure.afterAttempts, runnable: name) {
                reading.message = final.message
                reading.hint = final.hint
                reading.rerunnable = false
            } else {
                reading.hint = runnable.failureHint
            }
        case .cannotResume, .interrupted, .journalFailed:
            break
        }
        return reading
    }

    /// Some failures outlive the run: the number was rejected, or the sign-in attempt itself
    /// expired or was locked, so replaying its tokens cannot help and a new run is the way on.
    private static func explain(_ cause: any Error, step: String, attempts: String, runnable: String)
        -> (message: String, hint: String)?
    {
        guard let authError = cause as? AuthError else { return nil }
        // A rejected number: a rerun keeps the number the run started with, so it would be
        // rejected again; nobody at a terminal could be asked, so a new run with another
        // number is the way on.
        if case .invalidPhone = authError {
            return (
                "\(step) failed: \(cause)",
                "Check the number and start a new sign-in: opctl run \(runnable) --phone NUMBER"
            )
        }
        // The terms changed during the run: a rerun would replay the old acceptance, and nobody
        // at a terminal could be shown the new terms, so a new run that accepts them is the way on.
        if case .termsOutdated = authError {
            return (
                "\(step) failed: \(cause)",
                "Start a new sign-in to read and accept them: opctl run \(runnable) --phone NUMBER --accept-terms"
            )
        }
        if authError.endsTheAttempt {
            return ("\(step) failed\(attempts): \(cause)", "Start a new sign-in: opctl run \(runnable)")
        }
        return nil
    }

    /// Whether the run needs a phone number its journal does not have, and no one at a
    /// terminal will be asked for it: the rerun hint then asks for `--phone`.
    private static func phoneMissing(_ record: JournalRecord?, runnable: String, inputIsTerminal: Bool) -> Bool {
        guard !inputIsTerminal, runnable == "auth" || runnable == "PhoneOp", let record else { return false }
        return ((try? record.input(as: PhoneNumber?.self)) ?? nil) == nil
    }

    /// Whether a rerun will reach the code screen: the sign-in got under way (or is the whole
    /// scenario) and its code step has not succeeded. The code is never kept, so the hint asks for it.
    private static func codeStepStillToRun(_ record: JournalRecord?, runnable: String) -> Bool {
        guard runnable == "auth" || runnable == "app", let record else { return false }
        let signInStarted = runnable == "auth" || record.steps.contains { $0.name == "PhoneOp" }
        let codeDone = record.steps.contains { $0.name == "CodeOp" && [.succeeded, .replayed].contains($0.outcome) }
        return signInStarted && !codeDone
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
}
