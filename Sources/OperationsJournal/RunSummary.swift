public import Foundation
public import Operations

/// What a listing of runs needs to know about one run, without its steps and values.
///
/// A ``JournalRecord`` carries every attempt and recorded value, which a listing of thousands
/// of runs has no use for; a summary is small enough to cache in the run directory's index
/// (``RunStore/summaries()``), so a listing reads only the journals that changed since the
/// last one. Its ``status`` is always current: a run without a recorded end is `running` or
/// `interrupted` according to its journal's lock at the moment of the listing, never cached.
public struct RunSummary: Sendable, Hashable {
    /// The run's id (its file name).
    public let id: RunID
    /// The journaled scenario's name.
    public let scenario: String
    /// How the run stands now.
    public let status: RunStatus
    /// For a failed or cancelled run, the innermost step whose failure ended it; for an
    /// interrupted or running one, the innermost step in flight, when the journal knows it.
    public let failedStep: StepAddress?
    /// When the journal was created.
    public let createdAt: Date
    /// When the scenario was first launched; `nil` if the process stopped before that.
    public let startedAt: Date?
    /// When the run last finished; `nil` while running or when interrupted without a record.
    public let finishedAt: Date?
    /// When the run last did something the journal records: its end, else its latest step's
    /// launch or finish, else its start or creation. Pruning measures a run's age from here, so
    /// a run resumed yesterday is not old because it was first launched a month ago.
    public let lastActivityAt: Date
    /// How many processes worked on the run: 1, plus one per resume.
    public let sessions: Int
    /// For a run made by `rerun ID --from STEP`, the run and step it came from; the runs made
    /// from a run are the summaries whose origin names it.
    public let rerunOf: RerunOrigin?
    /// What the store's ``RunStore/listingNote`` said of the run when a listing last read its
    /// journal, kept in the index so a listing that shows it reads no journal; `nil` when the
    /// store has no such rule, the rule said nothing, or the index was written without one.
    public let listingNote: String?
}

extension RunSummary {
    /// Summarises a record read from a journal.
    public init(_ record: JournalRecord) {
        self.init(record, id: record.runID)
    }

    /// Summarises a record under the id its file is named after, which is how a listing
    /// names it even when a copied journal's header says otherwise.
    init(_ record: JournalRecord, id: RunID, listingNote: String? = nil) {
        var latest =
            [record.createdAt, record.startedAt, record.finishedAt].compactMap { $0 }.max() ?? record.createdAt
        for step in record.steps {
            for attempt in step.attempts {
                let end =
                    attempt.duration.map { attempt.launchedAt.addingTimeInterval($0.seconds) } ?? attempt.launchedAt
                latest = max(latest, end)
            }
        }
        self.init(
            id: id, scenario: record.scenario, status: record.status, failedStep: record.failedStep,
            createdAt: record.createdAt, startedAt: record.startedAt, finishedAt: record.finishedAt,
            lastActivityAt: latest, sessions: record.sessions, rerunOf: record.rerunOf, listingNote: listingNote)
    }
}

extension Duration {
    /// The duration in seconds, as `Date` arithmetic takes it.
    fileprivate var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
