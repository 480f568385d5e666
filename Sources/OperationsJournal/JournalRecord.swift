public import Foundation
public import Operations

/// What a journal says about one run: its identity, status, steps and attempts.
///
/// Made by ``ScenarioJournal/load(_:)`` (or ``RunStore``) from the journal file; a value, so it
/// can be listed, shown and handed to ``JournalReplay`` to resume the run. Attempts from every
/// process that worked on the run (each *session*: the first launch, then every resume) are
/// listed in order.
public struct JournalRecord: Sendable {
    /// The journal file.
    public let url: URL
    /// The run's id.
    public let runID: RunID
    /// The journaled scenario's name.
    public let scenario: String
    /// When the journal was created.
    public let createdAt: Date
    /// When the scenario was first launched; `nil` if the process stopped before that.
    public let startedAt: Date?
    /// When the run last finished; `nil` while running or when interrupted without a record.
    public let finishedAt: Date?
    /// How the run stands.
    public let status: RunStatus
    /// For a failed or cancelled run, the innermost step whose failure ended it; for an
    /// interrupted or running one, the innermost step in flight, when the journal knows it.
    public let failedStep: StepAddress?
    /// The error that ended the run, for failed, cancelled and interrupted runs.
    public let error: RecordedError?
    /// Every step that was launched, skipped or replayed, in order of first appearance (steps
    /// of nested scenarios have longer addresses).
    public let steps: [StepRecord]
    /// How many processes worked on the run: 1, plus one per resume.
    public let sessions: Int
    /// Whether the file ended in a torn line past its last sync (a process killed mid-write),
    /// which was ignored. A torn line the journal had synced is a lost line, and no record is
    /// read (``JournalError/linesLost(_:_:)``).
    public let ignoredTornLine: Bool
    /// Lines after the header that were damaged and skipped: those a resume acknowledged, and,
    /// in a record read to resume the run, any new ones. A record read otherwise refuses a line
    /// no resume has acknowledged (``JournalError/damaged(_:line:reason:)``).
    public let damagedLines: [DamagedLine]

    /// A line of the journal that does not read and was skipped.
    public struct DamagedLine: Sendable, Hashable, CustomStringConvertible {
        /// Its number in the file, the header being line 1.
        public let line: Int
        /// Why it does not read.
        public let reason: String

        /// `line 7: its checksum does not match …`.
        public var description: String { "line \(line): \(reason)" }
    }

    let input: RecordedValue?
    let output: RecordedValue?
    let stepIndex: [StepAddress: Int]
    /// The steps whose failure for good started an undoing of the run's finished steps, with
    /// the error each failed with.
    let compensating: [StepAddress: RecordedError]
    /// Where each polled step's polling stood when the run stopped, by the step's address: its
    /// last `polling` line, with a poll launched after that line's wait counted in (the wait is
    /// then over, and its `nextPoll` is `nil`).
    public let pollProgress: [StepAddress: PollProgress]

    /// The inputs of a step's launches that a resume needs: the value its chain started it with,
    /// and the input of its latest attempt — the same after a retry, the handler's new input
    /// after a relaunch (the code asked again without another SMS, the terms shown again).
    struct LaunchInputs: Sendable, Hashable {
        var started: RecordedValue?
        var latest: RecordedValue?
    }
    /// The length of the file up to the end of its last intact line.
    let intactLength: Int
    /// How many complete lines the file holds, damaged ones included: the place of its last.
    let lineCount: Int
    /// The checksum of the last complete line, when it has one and is intact: what the next
    /// line appended names as the one before it.
    let lastLineSum: UInt32?
    /// The shape of the scenario that wrote the journal; `nil` for a journal created without
    /// one (by name only, or before journals recorded shapes), which cannot be shape-checked.
    public let shape: ScenarioShape?
    /// The host's settings recorded with the header (a CLI's backend, say); empty when none.
    public let settings: [String: String]
    /// For a run made by `rerun ID --from STEP`, the run and step it came from (its header
    /// says so); `nil` for every other run.
    public internal(set) var rerunOf: RerunOrigin? = nil
    /// The events from outside the run's scenarios handled, with what each reaction launched,
    /// in the order they were handled over every session; empty in journals from before they
    /// were recorded.
    public internal(set) var handledEvents: [HandledEventRecord] = []

    /// The input the run was first launched with, for launching it again on resume.
    ///
    /// - Parameters:
    ///   - type: The type the input is decoded as.
    ///   - sealer: Opens an input the run sealed (``JournalConfidential``).
    /// - Returns: The input, or `nil` when it was not recorded (not `Encodable`, or confidential
    ///   and withheld), it was sealed and no sealer is given, or `type` is not `Decodable`.
    /// - Throws: ``JournalError/valueNotReadable(step:type:reason:)`` when the recorded input is
    ///   not a `type`, or does not open with `sealer`.
    public func input<T>(as type: T.Type, sealer: (any JournalSealer)? = nil) throws(JournalError) -> T? {
        try input?.decode(as: type, step: StepAddress(path: []), sealer: sealer)
    }

    /// The output of a run that succeeded.
    ///
    /// - Returns: The output, or `nil` when the run has none recorded.
    /// - Throws: ``JournalError/valueNotReadable(step:type:reason:)`` when it is not a `type`.
    public func output<T>(as type: T.Type) throws(JournalError) -> T? {
        try output?.decode(as: type, step: StepAddress(path: []))
    }

    /// The steps whose effect was undone after a later step failed for good (their
    /// compensations succeeded), in the order they were undone; empty when nothing was.
    public var undoneSteps: [StepAddress] {
        undone.map(\.address)
    }

    /// The steps whose effect was undone after a later step failed for good, with the
    /// compensation that undid each, in the order they were undone, over every session; empty
    /// when nothing was. What `StepFailure.undoneSteps` says of a live run, for a run read back:
    /// an app that reruns an undone run (refused with ``JournalError/alreadyUndone(_:undone:)``)
    /// learns here what was undone.
    ///
    /// ```swift
    /// let record = try store.load(runID)
    /// let closed = record.undone.contains { $0.step == "OpenAccountOp" }
    /// ```
    public var undone: [UndoneStep] {
        steps.filter { $0.address.isCompensation && $0.outcome.isDone }
            .map { UndoneStep(address: StepAddress(path: Array($0.address.path.dropLast())), compensation: $0.name) }
    }

    /// Whether the run failed for good and undid every finished step that declares a
    /// compensation: it is over, and a rerun would only fail the same way. A run whose undoing
    /// left something undone fails with a `CompensationFailure` instead, and a rerun tries
    /// those compensations again.
    public var isUndone: Bool {
        status == .failed && !compensating.isEmpty && error?.type != String(describing: CompensationFailure.self)
            && steps.allSatisfy { !$0.address.isCompensation || $0.outcome.isDone }
    }

    /// The step at `address`, if the journal mentions it.
    public func step(at address: StepAddress) -> StepRecord? {
        stepIndex[address].map { steps[$0] }
    }
}

/// How a journaled run stands. The raw values are what `opctl runs --json` prints.
public enum RunStatus: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The scenario finished with an output.
    case succeeded
    /// A step failed and the scenario ended with its failure; it can be resumed.
    case failed
    /// The scenario was cancelled by its caller.
    case cancelled
    /// The process stopped the run (Ctrl-C) or died while it was in flight; it can be resumed.
    case interrupted
    /// A live process is still writing the run.
    case running

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String { rawValue }
}

/// One step of a journaled run across all its sessions.
public struct StepRecord: Sendable, Hashable {
    /// How a step stands at the end of the journal.
    public enum Outcome: String, Sendable, Hashable, Codable, CustomStringConvertible {
        /// Its latest attempt succeeded (or a failure handler recovered it); it will be replayed.
        case succeeded
        /// Its latest attempt failed and was not retried.
        case failed
        /// It was cancelled.
        case cancelled
        /// It was in flight when its process stopped.
        case interrupted
        /// It is in flight in a live process, or failed and awaits its retry.
        case running
        /// Its condition was false; it did not run.
        case skipped
        /// Its output was taken from an earlier session.
        case replayed

        /// A sentence for people: logs, CLI messages, test failures.
        public var description: String { rawValue }

        /// Whether the step's work is done: it succeeded in this session or an earlier one.
        public var isDone: Bool { self == .succeeded || self == .replayed }
    }

    /// Where the step sits.
    public let address: StepAddress
    /// Every launch of the step, over all sessions, in order.
    public internal(set) var attempts: [AttemptRecord]
    /// How the step stands.
    public internal(set) var outcome: Outcome
    /// The step's purity as its latest launch recorded it; `nil` in journals that predate it.
    public internal(set) var purity: Purity? = nil
    /// Why the journal cannot give back the output of the step's latest attempt that succeeded,
    /// whatever the sealer — a confidential field withheld because the run had no
    /// ``JournalSealer``, a value that is not `Encodable` — so that a rerun launches the step
    /// again instead of replaying it, and a runner can say so; `nil` otherwise.
    public var outputNotKept: String? { output?.notKept }
    /// The sessions that took the step's output from the journal instead of launching it, in
    /// order: what a view of a rerun's session says was replayed, not sent again.
    public internal(set) var replayedInSessions: [Int] = []
    /// The output of the step's latest attempt, when it succeeded: what a resume replays.
    var output: RecordedValue? = nil
    /// What the step was launched with (``JournalRecord/LaunchInputs``); `nil` before it was.
    var launchInputs: JournalRecord.LaunchInputs? = nil

    /// The step's name.
    public var name: String { address.name }

    /// Whether the step's request may have acted without the journal knowing: the step did not
    /// succeed, and an attempt of its latest request (the attempts with the latest attempt's
    /// key, or the latest attempt alone when it has none) was launched and never finished, or
    /// failed with an answer that may have been lost (``RecordedError/isOutcomeUncertain``).
    ///
    /// A lost answer followed by a definite "unavailable" leaves the step in doubt: the first
    /// attempt may have acted. A rerun repeats such a step with side effects only with its key.
    /// A step of a live run that is still running is not in doubt: its outcome is on its way.
    public var isInDoubt: Bool {
        guard outcome != .succeeded, outcome != .replayed, outcome != .skipped, outcome != .running,
            let last = attempts.last
        else {
            return false
        }
        let request = last.idempotencyKey.map { key in attempts.filter { $0.idempotencyKey == key } } ?? [last]
        return request.contains(where: \.mayHaveActedUnanswered)
    }

    /// The key of the request a rerun would repeat, when the step is in doubt: what `show`
    /// prints in its short form beside the step.
    public var keyInDoubt: IdempotencyKey? {
        isInDoubt ? attempts.last?.idempotencyKey : nil
    }
}

/// One launch of a step.
public struct AttemptRecord: Sendable, Hashable {
    /// How an attempt ended.
    public enum Outcome: Sendable, Hashable {
        /// The operation finished with an output.
        case succeeded
        /// The operation finished with an error; `willRetry` tells whether the retry policy
        /// launched the step again.
        indirect case failed(RecordedError, willRetry: Bool)
        /// The process stopped while the attempt was in flight.
        case interrupted
        /// The attempt is in flight in a live process.
        case running
    }

    /// The session (process) that launched it, from 1.
    public let session: Int
    /// The attempt number within its session, from 1.
    public let attempt: Int
    /// When it was launched.
    public let launchedAt: Date
    /// How it ended.
    public internal(set) var outcome: Outcome
    /// How long it took, for finished attempts.
    public internal(set) var duration: Duration?
    /// The attempt's idempotency key, for a step with side effects (never print it in clear;
    /// its description is redacted).
    public internal(set) var idempotencyKey: IdempotencyKey? = nil

    /// Whether this attempt may have acted with no answer saying so: it never finished, or its
    /// error may have come after the request took effect.
    var mayHaveActedUnanswered: Bool {
        switch outcome {
        case .interrupted, .running: true
        case .failed(let error, _): error.isOutcomeUncertain
        case .succeeded: false
        }
    }
}
