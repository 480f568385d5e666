import AuthFlow
import Dispatch
import Foundation
import Operations
import OperationsRunner
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs one journaled scenario for `opctl run` and `opctl rerun`: wires progress, journal,
/// Ctrl-C and the screens, waits for the finish, and turns the outcome into output and an exit
/// status.
struct ScenarioExecution {
    let runnable: RunnableScenario
    let journal: ScenarioJournal
    let replay: (any StepReplaying)?
    let services: SignInServices
    let stateDirectory: URL
    /// The `--state-dir` given on the command line, repeated in the rerun hint.
    let stateDirectoryOption: String?
    let console: Console
    let json: Bool

    func run(input: PhoneNumber?) -> Int32 {
        let token = CancellationToken()
        let interrupted = Atomic<Bool>(false)
        let interruption = Self.onInterrupt {
            interrupted.store(true, ordering: .relaxed)
            journal.noteInterruption()
            token.cancel()
        }
        defer { interruption.stop() }

        let environment = OpEnvironment(
            observer: ObserverGroup([ProgressPrinter(console: console), journal]), replay: replay)
        var traced = OpContext(input, cancellation: token, environment: environment)
        let tracer = openTrace()
        traced.trace = .root(tracer, caller: .caller("opctl"))
        let context = traced
        let result = Self.wait { runnable.launch(services.factory, context, $0) }
        tracer?.stop()
        try? journal.close()

        if interrupted.load(ordering: .relaxed) {
            return report(status: "interrupted", message: "interrupted", exit: ExitStatus.interrupted, failedStep: nil)
        }
        switch result {
        case .success(let outcome):
            return succeed(outcome)
        case .failure(let error):
            if let inputError = services.screens.inputError {
                return report(
                    status: "cancelled", message: inputError.message, exit: ExitStatus.usage, failedStep: nil,
                    hint: inputError.hint)
            }
            let failure = error as? StepFailure
            // The journal, not the step, stopped the rerun: a step in doubt without a key, or a
            // recorded value this build cannot read. Rerunning the same way would stop again.
            if let cause = failure?.rootCause, cause is ResumeError || cause is JournalError {
                let hint =
                    cause is ResumeError
                    ? "If you know it did not take effect: opctl rerun \(journal.runID) --relaunch-in-doubt" : nil
                return report(
                    status: "failed", message: "cannot resume run \(journal.runID): \(cause)", exit: ExitStatus.usage,
                    failedStep: failure?.failedOperation, hint: hint, rerunnable: false)
            }
            if error.isCancellation {
                let reason = (failure?.rootCause ?? error)
                return report(
                    status: "cancelled", message: "sign-in cancelled: \(reason)", exit: ExitStatus.cancelled,
                    failedStep: failure?.failedOperation)
            }
            let step = failure?.failedOperation ?? runnable.name
            let cause = failure?.rootCause ?? error
            let attempts = (failure?.attempt ?? 1) > 1 ? " after \(failure?.attempt ?? 1) attempts" : ""
            // Some failures outlive the run: the sign-in attempt itself expired or was locked, so
            // replaying its tokens cannot help and a new run is the way on.
            // A rejected number: a rerun keeps the number the run started with, so it would be
            // rejected again; nobody at a terminal could be asked, so a new run with another
            // number is the way on.
            if case .invalidPhone? = cause as? AuthError {
                return report(
                    status: "failed", message: "\(step) failed: \(cause)", exit: ExitStatus.failure, failedStep: step,
                    hint: "Check the number and start a new sign-in: opctl run \(runnable.name) --phone NUMBER",
                    rerunnable: false)
            }
            if let authError = cause as? AuthError, authError.endsTheAttempt {
                return report(
                    status: "failed", message: "\(step) failed\(attempts): \(cause)", exit: ExitStatus.failure,
                    failedStep: step, hint: "Start a new sign-in: opctl run \(runnable.name)", rerunnable: false)
            }
            return report(
                status: "failed", message: "\(step) failed\(attempts): \(cause)", exit: ExitStatus.failure,
                failedStep: step, hint: runnable.failureHint)
        }
    }

    /// Opens the run's trace next to its journal for `opctl diagram --run`: every event is
    /// appended as it happens, so a killed run keeps its trace, and a rerun adds a session to
    /// it. Labels are redacted, so the file holds no secret; it is owner-only all the same.
    private func openTrace() -> FileTracer? {
        do {
            return try FileTracer(appendingTo: RunTrace.url(for: journal.url))
        } catch {
            console.note(console.styled("could not save the run's trace: \(error)", .dim))
            return nil
        }
    }

    // MARK: - Output

    private func succeed(_ outcome: RunnableScenario.RunOutcome) -> Int32 {
        let savedTo = outcome.token == nil ? nil : SignInServices.tokenFile(in: stateDirectory).path
        if json {
            var object = runObject(status: "succeeded", failedStep: nil)
            object["token"] = outcome.token?.redacted
            object["savedTo"] = savedTo
            console.print(JSONText.encode(object))
        } else {
            console.print(outcome.sentence)
            if let token = outcome.token, let savedTo {
                console.print("Auth token \(token.redacted) saved to \(savedTo)")
            }
            console.note(console.styled("run \(journal.runID)", .dim))
        }
        return ExitStatus.success
    }

    private func report(
        status: String, message: String, exit: Int32, failedStep: String?, hint: String? = nil,
        rerunnable: Bool = true
    ) -> Int32 {
        // A run the user declined is finished business: rerunning it would decline again.
        let declined = exit == ExitStatus.cancelled && failedStep != nil
        let rerun = declined || !rerunnable ? nil : rerunCommand(failedStep: failedStep)
        if json {
            var object = runObject(status: status, failedStep: failedStep)
            object["error"] = message
            object["rerun"] = rerun
            console.print(JSONText.encode(object))
        } else {
            console.note("opctl: " + console.styled(message, .red))
            if let hint { console.note(hint) }
        }
        console.note("run id: \(journal.runID)")
        if let rerun { console.note("to rerun: \(rerun)") }
        return exit
    }

    /// The keys `runs --json` gives a run (`id`, `scenario`, `status`, `failedStep`, `startedAt`),
    /// plus `runId`, its first name here.
    private func runObject(status: String, failedStep: String?) -> [String: Any] {
        let record = try? ScenarioJournal.load(journal.url)
        var object: [String: Any] = [
            "id": journal.runID.description, "runId": journal.runID.description, "scenario": runnable.name,
            "status": status, "failedStep": failedStep ?? record?.failedStep?.name ?? NSNull(),
        ]
        object["startedAt"] = record.map { RunTimestamp.text($0.startedAt ?? $0.createdAt) }
        return object
    }

    private func rerunCommand(failedStep: String?) -> String {
        var words = ["opctl", "rerun", journal.runID.description]
        if phoneMissing { words.append("--phone NUMBER") }
        if failedStep == "CodeOp" || codeStepStillToRun { words.append("--code CODE") }
        if let stateDirectoryOption { words.append("--state-dir \(Self.shellQuoted(stateDirectoryOption))") }
        return words.joined(separator: " ")
    }

    /// Whether the run needs a phone number its journal does not have, and no one at a
    /// terminal will be asked for it: the rerun hint then asks for `--phone`.
    private var phoneMissing: Bool {
        guard !console.inputIsTerminal, runnable.name == "auth" || runnable.name == "PhoneOp",
            let record = try? ScenarioJournal.load(journal.url)
        else { return false }
        return ((try? record.input(as: PhoneNumber?.self)) ?? nil) == nil
    }

    /// Whether a rerun will reach the code screen: the sign-in got under way (or is the whole
    /// scenario) and its code step has not succeeded. The code is never kept, so the hint asks for it.
    private var codeStepStillToRun: Bool {
        guard runnable.name == "auth" || runnable.name == "app",
            let record = try? ScenarioJournal.load(journal.url)
        else { return false }
        let signInStarted = runnable.name == "auth" || record.steps.contains { $0.name == "PhoneOp" }
        let codeDone = record.steps.contains { $0.name == "CodeOp" && [.succeeded, .replayed].contains($0.outcome) }
        return signInStarted && !codeDone
    }

    private static func shellQuoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "/._-".contains($0) }
            ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: - Process plumbing

    /// Waits for `start`'s single finish; a scenario may wait on a person, so there is no timeout.
    private static func wait<T: Sendable>(_ start: @escaping @Sendable (@escaping OnFinish<T>) -> Void)
        -> Result<T, any Error>
    {
        let outcome = LockedState<Result<T, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        // Launched off the main thread: a screen may block reading the terminal, and Ctrl-C must
        // still end the wait (the cancelled scenario finishes while the prompt is abandoned).
        DispatchQueue.global().async {
            start { result in
                outcome.withLock { $0 = $0 ?? result }
                finished.signal()
            }
        }
        finished.wait()
        // The semaphore is signalled only after a result was stored.
        return outcome.withLock { $0 } ?? .failure(OpError.cancelled)
    }

    /// Turns Ctrl-C into `handler` instead of killing the process, until ``SignalTrap/stop()``,
    /// which puts back what SIGINT did before.
    private static func onInterrupt(_ handler: @escaping @Sendable () -> Void) -> SignalTrap {
        SignalTrap([SIGINT]) { _ in handler() }
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
