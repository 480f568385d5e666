import Foundation
import Operations

extension RunIndex {
    /// What the index keeps about one journal file: the stamp it was read at, and either the
    /// run's summary or why the journal cannot be read.
    struct Entry: Equatable {
        /// The journal's stamp when it was read; the entry is used only while it is unchanged.
        var stamp: FileStamp
        /// The run, for a journal that reads.
        var run: CachedRun?
        /// Why the journal does not read, for one that does not.
        var failure: CachedFailure?

        /// The summary or error the entry stands for, with the status of an unfinished run
        /// taken from its journal's lock (at `path`) now; `url` is made only for an error.
        func summary(id: RunID, path: String, url: () -> URL) -> Result<RunSummary, JournalError> {
            if let run {
                return .success(run.summary(id: id, isBeingWritten: { JournalFile.isBeingWritten(path: path) }))
            }
            let url = url()
            return .failure(failure?.error(url) ?? .notAJournal(url, reason: "the run index lost its entry"))
        }
    }

    /// A run's summary as cached, with what depends on a live process left out: a run with no
    /// recorded end is stored as unfinished, and only its lock, asked at listing time, says
    /// whether it is running or interrupted.
    struct CachedRun: Equatable {
        var scenario: String
        /// How the run's last session ended, as recorded; `nil` when no end is recorded.
        var finished: RunStatus?
        var failedStep: StepAddress?
        /// Times in milliseconds since 1970, the journal's own resolution.
        var createdAt: Int64
        var startedAt: Int64?
        var finishedAt: Int64?
        var lastActivityAt: Int64
        var sessions: Int
        /// The run and step a `rerun --from` made the run from (index version 3).
        var rerunOf: RerunOrigin?
        /// For a run that failed for good and undid its finished steps, their names in the
        /// order they were undone (``JournalRecord/isUndone``), so `check` knows such a run is
        /// over without reading its journal (index version 4); `nil` for any other run.
        var undone: [String]?
        /// The store's note on the run (``RunSummary/listingNote``); `nil` in lines written
        /// without one, which a listing that needs it reads from the journal instead.
        var note: String?

        func summary(id: RunID, isBeingWritten: () -> Bool) -> RunSummary {
            RunSummary(
                id: id, scenario: scenario, status: finished ?? (isBeingWritten() ? .running : .interrupted),
                failedStep: failedStep, createdAt: Self.date(createdAt), startedAt: startedAt.map(Self.date),
                finishedAt: finishedAt.map(Self.date), lastActivityAt: Self.date(lastActivityAt), sessions: sessions,
                rerunOf: rerunOf, listingNote: note)
        }

        private static func milliseconds(_ date: Date) -> Int64 {
            Int64((date.timeIntervalSince1970 * 1000).rounded())
        }

        private static func date(_ milliseconds: Int64) -> Date {
            JournalReader.date(milliseconds)
        }
    }

    /// A ``JournalError`` that says something lasting about a file's content, as cached. Errors
    /// of the moment (a file that could not be opened) are never cached, nor lost lines: that
    /// verdict rests on the journal's sync mark too, which the journal's stamp does not cover.
    struct CachedFailure: Equatable {
        enum Kind: String {
            case notAJournal, unsupportedVersion, damaged
        }

        var kind: Kind
        var reason = ""
        var line: Int?
        var found: Int?
        var supported: Int?

        func error(_ url: URL) -> JournalError {
            switch kind {
            case .notAJournal: .notAJournal(url, reason: reason)
            case .unsupportedVersion: .unsupportedVersion(url, found: found ?? 0, supported: supported ?? 0)
            case .damaged: .damaged(url, line: line ?? 0, reason: reason)
            }
        }
    }
}

extension RunIndex.CachedRun {
    /// The cached form of `summary`, a summary of `record`.
    init(_ summary: RunSummary, of record: JournalRecord) {
        scenario = summary.scenario
        finished = summary.finishedAt == nil ? nil : summary.status
        failedStep = summary.failedStep
        createdAt = Self.milliseconds(summary.createdAt)
        startedAt = summary.startedAt.map(Self.milliseconds)
        finishedAt = summary.finishedAt.map(Self.milliseconds)
        lastActivityAt = Self.milliseconds(summary.lastActivityAt)
        sessions = summary.sessions
        rerunOf = summary.rerunOf
        undone = record.isUndone ? record.undoneSteps.map(\.name) : nil
        note = summary.listingNote
    }
}

extension RunIndex.CachedFailure {
    /// The cacheable form of `error`; `nil` for an error of the moment.
    init?(_ error: JournalError) {
        switch error {
        case .notAJournal(_, let reason):
            kind = .notAJournal
            self.reason = reason
        case .unsupportedVersion(_, let found, let supported):
            kind = .unsupportedVersion
            self.found = found
            self.supported = supported
        case .damaged(_, let line, let reason):
            kind = .damaged
            self.line = line
            self.reason = reason
        default:
            return nil
        }
    }
}
