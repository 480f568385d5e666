import Operations
public import OperationsJournal

/// How a run that did not succeed reads: exactly what the runner prints for it — the line after
/// `PROGRAM: `, the hint under it, the status in `--json`, the exit status, and the rerun
/// command it offers. The runner reads every failure itself (``RunFailure/reading``); a program
/// that knows better changes the reading in its ``PreparedRun/explain``.
public struct FailureReading: Sendable {
    /// The run's status in `--json`: `failed`, `cancelled` or `interrupted`.
    public var status: String
    /// The line after `PROGRAM: `.
    public var message: String
    /// The line under it, if any.
    public var hint: String?
    /// The status the process exits with (``ExitStatus``).
    public var exitStatus: Int32
    /// The step `--json` names as failed; the journal's failed step when `nil`.
    public var failedStep: String?
    /// Whether a rerun command is offered. Some failures outlive the run (opctl: an expired
    /// sign-in attempt), so rerunning cannot help and the hint says what can.
    public var rerunnable: Bool
    /// Words after `PROGRAM rerun RUN_ID` for a run whose journal cannot be read; otherwise the
    /// runner reads the words the rerun needs from the journal (``RunHint``,
    /// ``RunnerConfiguration/rerunInputs``).
    public var rerunArguments: [String]

    /// Creates a reading.
    ///
    /// - Parameters:
    ///   - status: The run's status in `--json`.
    ///   - message: The line after `PROGRAM: `.
    ///   - hint: The line under it, if any.
    ///   - exitStatus: The status the process exits with.
    ///   - failedStep: The step `--json` names as failed.
    ///   - rerunnable: Whether a rerun command is offered.
    ///   - rerunArguments: Words the rerun will need.
    public init(
        status: String, message: String, hint: String? = nil, exitStatus: Int32, failedStep: String?,
        rerunnable: Bool = true, rerunArguments: [String] = []
    ) {
        self.status = status
        self.message = message
        self.hint = hint
        self.exitStatus = exitStatus
        self.failedStep = failedStep
        self.rerunnable = rerunnable
        self.rerunArguments = rerunArguments
    }

    /// Input the run needed and could not get (a screen closed with no terminal to ask): the
    /// run ends as a usage error (exit 2) with the error's line and hint, and can be rerun with
    /// the input given.
    ///
    /// - Parameters:
    ///   - error: What was missing, as a usage error.
    ///   - program: The program's name, for the hint.
    /// - Returns: The reading.
    public static func missingInput(_ error: UsageError, program: String) -> FailureReading {
        FailureReading(
            status: "cancelled", message: error.message, hint: error.hint(program: program),
            exitStatus: ExitStatus.usage, failedStep: nil)
    }
}

/// A run that did not succeed, as the runner saw it, handed to the program's
/// ``PreparedRun/explain`` with the runner's own ``reading`` of it.
public struct RunFailure: Sendable {
    /// How the run ended.
    public enum Kind: Sendable, Equatable {
        /// A step failed.
        case failed
        /// The journal, not a step, stopped the rerun: a step in doubt without a key, or a
        /// recorded value this build cannot read.
        case cannotResume
        /// The run was cancelled (a screen declined, a cause that ends the flow).
        case cancelled
        /// Ctrl-C interrupted it.
        case interrupted
        /// Its journal could not write or sync, so the run stopped.
        case journalFailed
    }

    /// How the run ended.
    public let kind: Kind
    /// The root cause; `nil` for an interrupted run.
    public let cause: (any Error)?
    /// The failed step, or the runnable when no step failed.
    public let step: String
    /// How many times the failed step was attempted.
    public let attempts: Int
    /// The run's id.
    public let runID: RunID
    /// What the runner prints unless the program changes it.
    public let reading: FailureReading
    /// The run as its journal recorded it by its end, every session of it (what a rerun will
    /// find), or `nil` when what it wrote does not read as a journal.
    public let record: JournalRecord?

    init(
        kind: Kind, cause: (any Error)?, step: String, attempts: Int, runID: RunID, reading: FailureReading,
        record: JournalRecord?
    ) {
        self.kind = kind
        self.cause = cause
        self.step = step
        self.attempts = attempts
        self.runID = runID
        self.reading = reading
        self.record = record
    }

    /// `" after N attempts"` when the step was attempted more than once, else `""`: the words
    /// the runner's message puts after `STEP failed`.
    public var afterAttempts: String { attempts > 1 ? " after \(attempts) attempts" : "" }
}
