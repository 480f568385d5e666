public import Foundation
public import Operations

/// One run's history as its journal recorded it: the one model every view of a run reads.
///
/// `show` (text and JSON), a runner's `--follow`, the labels of its progress lines and the notes
/// a run's diagram adds to its trace all read a history, so none of them can say of a step what
/// another does not: its attempts (a polled step's polls), its outcome, whether it is running,
/// replayed (and in which session), skipped, undone, or in doubt with the key a rerun repeats;
/// and the events from outside it handled, with what their reactions launched.
/// An app can read one the same way, from ``RunStore/load(_:)``.
///
/// A history is made from a ``JournalRecord`` at a moment (`now`): a run whose journal a live
/// process still holds (``RunStatus/running``) is at a step, since the launch of that step's
/// latest attempt, never failed or in doubt.
public struct RunHistory: Sendable {
    /// The run's id.
    public let runID: RunID
    /// The journaled scenario's name.
    public let scenario: String
    /// How the run stands: ``RunStatus/running`` while a live process holds its journal.
    public let status: RunStatus
    /// When the scenario was first launched, or the journal created when it never was.
    public let startedAt: Date
    /// How many processes worked on the run: 1, plus one per resume.
    public let sessions: Int
    /// The error that ended the run, for failed, cancelled and interrupted runs.
    public let error: RecordedError?
    /// For a failed or cancelled run, the innermost step whose failure ended it; for an
    /// interrupted one, the innermost step in flight. `nil` for a running run (see ``current``).
    public let failedStep: StepAddress?
    /// Every step the journal mentions, in order of first appearance.
    public let steps: [Step]
    /// Where a running run is: its innermost step in flight and how long it has been there.
    public let current: Current?
    /// The steps whose effect was undone after a later step failed for good, in undoing order.
    public let undone: [StepAddress]
    /// Whether the run failed for good and undid every finished step (``JournalRecord/isUndone``).
    public let isUndone: Bool
    /// For a run made by `rerun ID --from STEP`, the run and step it came from.
    public let rerunOf: RerunOrigin?
    /// The events from outside the run's scenarios handled, each with its reaction and what it
    /// launched (the terms shown again, the token saved), in the order they were handled.
    public let events: [HandledEventRecord]

    /// Where a live run stands.
    public struct Current: Sendable, Hashable {
        /// The innermost step in flight (a nested scenario's step, not the scenario).
        public let step: StepAddress
        /// When the attempt in flight was launched.
        public let since: Date
        /// How long the run has been at ``step``, as of the moment the history was made.
        public let elapsed: Duration
    }

    /// Reads a record into its history.
    ///
    /// - Parameters:
    ///   - record: The run's journal, as loaded.
    ///   - now: The moment the history describes: how long a running run has been at its step
    ///     is measured to it.
    public init(_ record: JournalRecord, now: Date = Date()) {
        runID = record.runID
        scenario = record.scenario
        status = record.status
        let startedAt = record.startedAt ?? record.createdAt
        self.startedAt = startedAt
        sessions = record.sessions
        error = record.error
        rerunOf = record.rerunOf
        events = record.handledEvents
        undone = record.undoneSteps
        isUndone = record.isUndone
        let steps = record.steps.map { Step($0, polls: record.pollProgress[$0.address], runStatus: record.status) }
        self.steps = steps
        if record.status == .running {
            failedStep = nil
            // The step the record says the run is at, which the run's summary (`runs`) says too.
            let deepest = record.failedStep.flatMap { at in steps.first { $0.address == at && $0.outcome == .running } }
            current = deepest.map { step in
                let since = step.attempts.last?.launchedAt ?? startedAt
                let seconds = max(0, now.timeIntervalSince(since))
                return Current(step: step.address, since: since, elapsed: .milliseconds(Int64(seconds * 1000)))
            }
        } else {
            failedStep = record.failedStep
            current = nil
        }
    }

    /// The step at `address`, if the journal mentions it.
    public func step(at address: StepAddress) -> Step? {
        steps.first { $0.address == address }
    }

    /// The steps a session took from the journal instead of launching them: for a rerun's
    /// session, what it replayed, not sent again.
    ///
    /// - Parameter session: The session, from 1.
    /// - Returns: The replayed steps' addresses, in the order the run reached them.
    public func replayed(inSession session: Int) -> [StepAddress] {
        steps.filter { $0.replayedInSessions.contains(session) }.map(\.address)
    }
}

extension RunHistory {
    /// One step of the run across its sessions.
    public struct Step: Sendable, Hashable {
        /// Where the step sits.
        public let address: StepAddress
        /// How the step stands at the end of the journal.
        public let outcome: StepRecord.Outcome
        /// Every launch of the step, over all sessions, in order, each with its label.
        public let attempts: [Attempt]
        /// The step's purity as its latest launch recorded it; `nil` in older journals.
        public let purity: Purity?
        /// Whether a rerun must repeat the step's request under its key because it may have
        /// acted unanswered (``StepRecord/isInDoubt``); only a step with side effects is in
        /// doubt, and never one of a live run, nor one cancelled while it waited for a person or
        /// a deadline with no other step in flight (Ctrl-C at its screen): its journal records
        /// that cancellation as certain, since no answer can have been lost.
        public let isInDoubt: Bool
        /// The key of the request in doubt (print only its redacted form).
        public let keyInDoubt: IdempotencyKey?
        /// Where a polled step's polling stood; `nil` for every other step.
        public let polls: PollProgress?
        /// The sessions that replayed the step from the journal.
        public let replayedInSessions: [Int]

        init(_ record: StepRecord, polls: PollProgress?, runStatus: RunStatus) {
            address = record.address
            outcome = record.outcome
            purity = record.purity
            let inDoubt = runStatus != .running && record.isInDoubt && record.purity == .sideEffects
            isInDoubt = inDoubt
            keyInDoubt = inDoubt ? record.keyInDoubt : nil
            self.polls = polls
            replayedInSessions = record.replayedInSessions
            var labeler = Attempt.Labeler(polled: polls != nil)
            attempts = record.attempts.enumerated().map { index, attempt in
                if index > 0, attempt.session != record.attempts[index - 1].session {
                    labeler.earlierAttempts = index
                }
                return Attempt(
                    label: labeler.label(forAttempt: attempt.attempt), session: attempt.session,
                    launchedAt: attempt.launchedAt, outcome: attempt.outcome, duration: attempt.duration)
            }
        }

        /// The step's name.
        public var name: String { address.name }

        /// For a compensation, the name of the step it undoes; `nil` for every other step.
        public var undoes: String? {
            address.isCompensation ? address.path.dropLast().last?.name : nil
        }

        /// How deep the step stands: a compensation at the level of the step it undoes.
        public var level: Int { address.path.count - (address.isCompensation ? 1 : 0) }
    }

    /// One launch of a step.
    public struct Attempt: Sendable, Hashable {
        /// What the launch was: an attempt, or a polled step's poll (and its attempt, when the
        /// poll was retried).
        public let label: Label
        /// The session (process) that launched it, from 1.
        public let session: Int
        /// When it was launched.
        public let launchedAt: Date
        /// How it ended, or ``AttemptRecord/Outcome/running`` while it is in flight.
        public let outcome: AttemptRecord.Outcome
        /// How long it took, for finished attempts.
        public let duration: Duration?

        /// What a launch was, in the words every view uses.
        public enum Label: Sendable, Hashable, CustomStringConvertible {
            /// The step's Nth attempt over the whole run: a session's attempts are numbered after
            /// the launches of earlier sessions, as a person counts them.
            case attempt(Int)
            /// A polled step's Nth poll, at its Mth attempt (1 unless the poll was retried).
            case poll(Int, attempt: Int)

            /// `attempt 2`, `poll 3`, `poll 3, attempt 2`.
            public var description: String {
                switch self {
                case .attempt(let number): "attempt \(number)"
                case .poll(let poll, let attempt): attempt == 1 ? "poll \(poll)" : "poll \(poll), attempt \(attempt)"
                }
            }
        }

        /// Labels a step's launches in order: a polled step's launches are its polls, each
        /// first attempt starting the next one. The progress lines of a live run and a history
        /// read from its journal label with the same rule, so they number alike.
        public struct Labeler: Sendable, Hashable {
            /// Whether the step is polled.
            public var polled: Bool
            /// The step's launches in earlier sessions, which this session's attempt numbers
            /// follow (the journal numbers each session's attempts from 1).
            public var earlierAttempts: Int
            private var polls = 0

            /// A labeler for one step, each part as its property says.
            public init(polled: Bool, earlierAttempts: Int = 0) {
                self.polled = polled
                self.earlierAttempts = earlierAttempts
            }

            /// Notes that the step is polled and `polls` polls have answered so far (a `polling`
            /// event before a wait): its next first attempt is the poll after them, also in a
            /// resumed session that did not see the earlier polls launched.
            public mutating func polled(after polls: Int) {
                polled = true
                self.polls = polls
            }

            /// The label of the step's next launch.
            ///
            /// - Parameter attempt: The launch's attempt number within its session, as the journal
            ///   records it.
            public mutating func label(forAttempt attempt: Int) -> Label {
                guard polled else { return .attempt(earlierAttempts + attempt) }
                if attempt == 1 || polls == 0 { polls += 1 }
                return .poll(polls, attempt: attempt)
            }
        }
    }
}
