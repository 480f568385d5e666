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
    ///   - makeInput: The phone number, once the state directory is ready.
    ///   - resumed: Called with a rerun's resumed journal.
    static func prepared(
        _ runnable: RunnableScenario, services: SignInServices, stateDirectory: URL, console: Console,
        settings: [String: String] = [:], injection: EventInjection? = nil,
        makeInput: @escaping @Sendable () throws -> PhoneNumber?,
        resumed: @escaping @Sendable (URL) -> Void = { _ in }
    ) -> PreparedRun<PhoneNumber> {
        let savedTo = SignInServices.tokenFile(in: stateDirectory).path
        let factory = services.factory
        return PreparedRun(
            shape: runnable.shape(factory), settings: settings, failureHint: runnable.failureHint,
            hooks: hooks(runnable: runnable.name, screens: services.screens, inputIsTerminal: console.inputIsTerminal),
            makeInput: makeInput, resumed: resumed
        ) { context, onFinish in
            let context = injection?.injecting(into: context, factory: factory, services: services) ?? context
            runnable.launch(factory, context) { result in
                onFinish(result.map { outcome($0, savedTo: savedTo) })
            }
        }
    }

    /// The sentence, and the token saved with where it was saved.
    private static func outcome(_ outcome: RunnableScenario.RunOutcome, savedTo: String) -> RunOutcome {
        guard let token = outcome.token else { return RunOutcome(sentence: outcome.sentence) }
        return RunOutcome(
            sentence: outcome.sentence, lines: ["Auth token \(token.redacted) saved to \(savedTo)"],
            jsonFields: ["token": token.redacted, "savedTo": savedTo])
    }

    private static func hooks(runnable name: String, screens: TerminalScreens, inputIsTerminal: Bool)
        -> ExecutionHooks
    {
        ExecutionHooks(
            inputError: { screens.inputError },
            cancellationMessage: { "sign-in cancelled: \($0)" },
            // Signed out elsewhere ends the flow for good: a rerun would replay a session check
            // that found someone signed in.
            explainCancellation: { cause in
                guard cause is SignedOutElsewhere else { return nil }
                return FailureReading(
                    message: "signed out: \(cause); the saved sign-in was deleted",
                    hint: "Sign in again: opctl run \(name)", rerunnable: false)
            },
            explainFailure: { cause, step, attempts in
                Self.explain(cause, step: step, attempts: attempts, runnable: name)
            },
            rerunArguments: { record, failedStep in
                var words: [String] = []
                if Self.phoneMissing(record, runnable: name, inputIsTerminal: inputIsTerminal) {
                    words.append("--phone NUMBER")
                }
                if failedStep == "CodeOp" || Self.codeStepStillToRun(record, runnable: name) {
                    words.append("--code CODE")
                }
                return words
            })
    }

    /// Some failures outlive the run: the number was rejected, or the sign-in attempt itself
    /// expired or was locked, so replaying its tokens cannot help and a new run is the way on.
    private static func explain(_ cause: any Error, step: String, attempts: String, runnable: String)
        -> FailureReading?
    {
        guard let authError = cause as? AuthError else { return nil }
        // A rejected number: a rerun keeps the number the run started with, so it would be
        // rejected again; nobody at a terminal could be asked, so a new run with another
        // number is the way on.
        if case .invalidPhone = authError {
            return FailureReading(
                message: "\(step) failed: \(cause)",
                hint: "Check the number and start a new sign-in: opctl run \(runnable) --phone NUMBER",
                rerunnable: false)
        }
        // The terms changed during the run: a rerun would replay the old acceptance, and nobody
        // at a terminal could be shown the new terms, so a new run that accepts them is the way on.
        if case .termsOutdated = authError {
            return FailureReading(
                message: "\(step) failed: \(cause)",
                hint:
                    "Start a new sign-in to read and accept them: opctl run \(runnable) --phone NUMBER --accept-terms",
                rerunnable: false)
        }
        if authError.endsTheAttempt {
            return FailureReading(
                message: "\(step) failed\(attempts): \(cause)", hint: "Start a new sign-in: opctl run \(runnable)",
                rerunnable: false)
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
