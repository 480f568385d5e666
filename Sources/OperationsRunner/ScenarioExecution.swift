import Dispatch
import Foundation
import Operations
import OperationsJournal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs one journaled scenario for a program's `run` and `rerun`: wires progress lines, the
/// journal, the run's trace and Ctrl-C, waits for the finish, and turns the outcome into output
/// (or the `--json` object), the rerun command and an exit status. Whatever the scenario, so a
/// program only says how to launch it and what its outcome and failures mean.
struct ScenarioExecution<Input: Sendable> {
    /// The program's name: the prefix of error lines, the start of the rerun command.
    let program: String
    /// The runnable's name on the command line and in the journal.
    let scenario: String
    let journal: ScenarioJournal
    let replay: (any StepReplaying)?
    /// The `--state-dir` given on the command line, repeated in the rerun hint.
    let stateDirectoryOption: String?
    let console: Console
    let json: Bool
    /// How a run that did not succeed reads (``PreparedRun/explain``).
    let explain: @Sendable (RunFailure) -> FailureReading
    /// How to go on with the run, from its journal (``RunHint``).
    let hint: @Sendable (JournalRecord) -> RunHint?
    /// Launches the scenario with the context and reports its outcome.
    let launch: @Sendable (OpContext<Input>, @escaping OnFinish<RunOutcome>) -> Void

    /// Runs the scenario with `input` until it finishes or Ctrl-C interrupts it.
    ///
    /// - Returns: The exit status (``ExitStatus``).
    func run(input: Input) -> Int32 {
        let token = CancellationToken()
        let interrupted = Atomic<Bool>(false)
        let journal = journal
        let console = console
        // Ctrl-C cancels the run instead of killing the process, until `stop()` puts back what
        // SIGINT did before.
        let interruption = SignalTrap([SIGINT]) { _ in
            // The terminal echoed ^C after whatever was on the line (a prompt waiting for its
            // answer): what the run prints next starts on a line of its own.
            if console.errorIsTerminal { console.err("\n") }
            interrupted.store(true, ordering: .relaxed)
            journal.noteInterruption()
            token.cancel()
        }
        defer { interruption.stop() }

        // The journal hears of each event first: by the time a progress line says a step
        // succeeded, its line is in the file, so a kill right after it loses nothing it claimed.
        let environment = OpEnvironment(
            observer: ObserverGroup([journal, ProgressPrinter(console: console, resumed: resumedHistory)]),
            replay: replay)
        var traced = OpContext(input, cancellation: token, environment: environment)
        // The run's trace, next to its journal for `diagram --run`: every event is appended as it
        // happens, so a killed run keeps its trace, and a rerun adds a session to it. Labels are
        // redacted, so the file holds no secret; it is owner-only all the same.
        let tracer: FileTracer?
        do {
            tracer = try FileTracer(appendingTo: RunTrace.url(for: journal.url))
        } catch {
            console.note(console.styled("could not save the run's trace: \(error)", .dim))
            tracer = nil
        }
        traced.trace = .root(tracer, caller: .caller(program))
        let context = traced
        let launch = launch
        let result = Self.wait { launch(context, $0) }
        tracer?.stop()
        // A run whose journal failed is not done, whatever the scenario said: what it claims
        // must be on disk (its last lines, or its end, may not be).
        let journalFailure: (any Error)?
        do {
            try journal.close()
            journalFailure = nil
        } catch {
            journalFailure = error
        }

        if interrupted.load(ordering: .relaxed) {
            let reading = FailureReading(
                status: "interrupted", message: "interrupted", exitStatus: ExitStatus.interrupted, failedStep: nil)
            return report(.interrupted, cause: nil, step: scenario, attempts: 1, reading)
        }
        switch result {
        case .success(let outcome):
            if let journalFailure { return failJournal(journalFailure, failedStep: nil) }
            return succeed(outcome)
        case .failure(let error):
            let failedStep = (error as? StepFailure)?.failedOperation
            if let halted = (error as? StepFailure)?.rootCause as? RunHalted ?? error as? RunHalted {
                return failJournal(halted.reason, failedStep: failedStep)
            }
            // The journal first, whatever else failed beside it: what the run says of its steps
            // (a card declined, its undoing) may not be on disk.
            if let journalFailure { return failJournal(journalFailure, failedStep: failedStep, alongside: error) }
            return fail(error)
        }
    }

    /// The journal could not write or sync: the run stopped before its next launch (or its end
    /// is not on disk). One sentence with the file and the system's error; a rerun goes on from
    /// the journal's last good line once the disk is fixed.
    private func failJournal(_ error: any Error, failedStep: String?, alongside other: (any Error)? = nil) -> Int32 {
        let also = other.map { other in
            " (the run had also failed: \((other as? StepFailure)?.description ?? "\(other)"))"
        }
        let reading = FailureReading(
            status: "failed", message: "the run's journal failed, so the run stopped: \(error)\(also ?? "")",
            hint: "Nothing was sent whose key is not in the journal. Free space or fix the disk, then rerun.",
            exitStatus: ExitStatus.failure, failedStep: failedStep)
        return report(.journalFailed, cause: error, step: failedStep ?? scenario, attempts: 1, reading)
    }

    /// The runner's reading of a failed or cancelled run, then the program's
    /// (``PreparedRun/explain``).
    private func fail(_ error: any Error) -> Int32 {
        let failure = error as? StepFailure
        let step = failure?.failedOperation ?? scenario
        let cause = failure?.rootCause ?? error
        // The step named is the innermost failed one, so are its attempts: over the whole run,
        // after those of the sessions before this one, as the run's history numbers them.
        let earlier =
            resumedHistory?.steps.first { earlier in
                !earlier.address.isCompensation && earlier.address.path.map(\.name) == failure?.stepPath
            }?.attempts.count ?? 0
        let attempts = (failure?.failedOperationAttempts ?? 1) + earlier
        func ending(_ kind: RunFailure.Kind, _ reading: FailureReading) -> Int32 {
            report(kind, cause: cause, step: step, attempts: attempts, reading)
        }
        // The journal, not the step, stopped the rerun: a step in doubt without a key, or a
        // recorded value this build cannot read. Rerunning the same way would stop again.
        if failure != nil, cause is ResumeError || cause is JournalError {
            let hint = cause is ResumeError ? RunHint.relaunchInDoubt(rerunCommand([])) : nil
            return ending(
                .cannotResume,
                FailureReading(
                    status: "failed", message: "cannot resume run \(journal.runID): \(cause)", hint: hint,
                    exitStatus: ExitStatus.usage, failedStep: failure?.failedOperation, rerunnable: false))
        }
        if let unanswered = cause as? PromptUnanswerable {
            // Nobody could answer a screen: nothing was undone, and a rerun with the input goes on.
            return ending(
                .cancelled,
                FailureReading(
                    status: "cancelled", message: "run stopped: \(unanswered)",
                    hint: "Rerun it with the input the question asked for: \(rerunCommand([]))",
                    exitStatus: ExitStatus.usage, failedStep: failure?.failedOperation))
        }
        if error.isCancellation {
            // Nothing was undone (DESIGN.md, contract 19): a rerun given the answer the person did
            // not give goes on, and the hint asks for it (``RunHint``).
            return ending(
                .cancelled,
                FailureReading(
                    status: "cancelled", message: "run cancelled: \(cause)", exitStatus: ExitStatus.cancelled,
                    failedStep: failure?.failedOperation))
        }
        if let undoing = error as? CompensationFailure {
            // Its undoing left something undone: a rerun tries those compensations again (and only those).
            let failure = undoing.failure as? StepFailure
            let step = failure?.failedOperation ?? scenario
            let left = undoing.leftUndone.map(\.description).joined(separator: ", ")
            let reading = FailureReading(
                status: "failed",
                message: "\(step) failed: \(failure?.rootCause ?? undoing.failure); left undone: \(left)",
                hint: "A rerun tries again to undo what is left undone.", exitStatus: ExitStatus.failure,
                failedStep: step)
            return report(.failed, cause: undoing, step: step, attempts: failure?.failedOperationAttempts ?? 1, reading)
        }
        return ending(
            .failed,
            FailureReading(
                status: "failed",
                message: "\(step) failed\(attempts > 1 ? " after \(attempts) attempts" : ""): \(cause)",
                exitStatus: ExitStatus.failure, failedStep: step))
    }

    /// The run's history before this session, for a rerun: what its attempt numbers follow.
    private var resumedHistory: RunHistory? { journal.resumedFrom.map { RunHistory($0) } }

    // MARK: - Output

    private func succeed(_ outcome: RunOutcome) -> Int32 {
        if json {
            var object = runObject(status: "succeeded", failedStep: nil, record: journal.history)
            for (key, value) in outcome.jsonFields { object[key] = value }
            console.print(JSONText.encode(object))
        } else {
            console.print(outcome.sentence)
            for line in outcome.lines { console.print(line) }
            console.note(console.styled("run \(journal.runID)", .dim))
        }
        return ExitStatus.success
    }

    /// Prints the program's reading of a run that did not succeed and returns its exit status.
    /// The way on is the journal's (``RunHint``), as `show` gives it: the rerun command with the
    /// inputs the rerun needs, or what to do instead.
    private func report(
        _ kind: RunFailure.Kind, cause: (any Error)?, step: String, attempts: Int, _ reading: FailureReading
    ) -> Int32 {
        // The history the journal wrote, which every line of the end reads: not the file again.
        let history = journal.history
        var reading = reading
        // A failure for good whose finished steps were undone is over: a rerun would fail the
        // same way and undo nothing more.
        if kind == .failed, reading.hint == nil, let history, history.isUndone {
            reading.hint = "Undone: \(history.undoneSteps.map(\.name).joined(separator: ", "))."
            reading.rerunnable = false
        }
        reading = explain(
            RunFailure(
                kind: kind, cause: cause, step: step, attempts: attempts, runID: journal.runID, reading: reading,
                record: history))
        let runHint = history.flatMap(hint)
        if reading.rerunnable, let instead = runHint?.instead {
            reading.rerunnable = false
            reading.hint = instead
        }
        let rerun = reading.rerunnable ? runHint?.rerun ?? rerunCommand(reading.rerunArguments) : nil
        if json {
            var object = runObject(status: reading.status, failedStep: reading.failedStep, record: history)
            object["error"] = reading.message
            object["rerun"] = rerun
            // As `show --json` and `runs --json` give it (``RunHint/line``).
            object["hint"] = rerun.map { "To resume: \($0)" } ?? reading.hint
            console.print(JSONText.encode(object))
        } else {
            console.note("\(program): " + console.styled(reading.message, .red))
            if let hint = reading.hint { console.note(hint) }
        }
        console.note("run id: \(journal.runID)")
        if let rerun { console.note("to rerun: \(rerun)") }
        return reading.exitStatus
    }

    /// The keys `runs --json` gives a run (`id`, `scenario`, `status`, `failedStep`, `startedAt`):
    /// one name for one fact, whichever command printed it.
    private func runObject(status: String, failedStep: String?, record: JournalRecord?) -> [String: Any] {
        var object: [String: Any] = [
            "id": journal.runID.description, "scenario": scenario,
            "status": status, "failedStep": failedStep ?? record?.failedStep?.name ?? NSNull(),
        ]
        object["startedAt"] = record.map { RunTimestamp.text($0.startedAt ?? $0.createdAt) }
        return object
    }

    /// The plain rerun command with `arguments`, for a run whose journal cannot be read.
    private func rerunCommand(_ arguments: [String]) -> String {
        ([program, "rerun", journal.runID.description] + arguments).joined(separator: " ")
            + RunHint.stateDirectoryWords(stateDirectoryOption)
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
}
