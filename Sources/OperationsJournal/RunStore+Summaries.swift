import Foundation
import Operations

extension RunStore {
    /// Every run in the store, oldest first, summarised, at a cost that does not grow with the
    /// number of journals once they have been listed.
    ///
    /// Use this rather than ``runs()`` for listings: summaries are cached in the store's index
    /// (`<directory>/index.cache`), and only journals created, written or replaced since the
    /// last listing are read. The index is checked against each journal's size, modification
    /// time and inode and is rebuilt when damaged, so it is never trusted blindly; a run with no
    /// recorded end is reported `running` or `interrupted` from its lock at this moment.
    ///
    /// ```swift
    /// let failed = try store.summaries().compactMap { try? $0.summary.get() }.filter { $0.status == .failed }
    /// ```
    ///
    /// - Returns: One entry per journal file; a journal that cannot be read is listed with its
    ///   error, a file another process has just created and not yet written is left out.
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory exists but cannot be
    ///   read. A store with no runs yet lists nothing.
    public func summaries() throws(JournalError) -> [SummaryEntry] {
        var entries: [SummaryEntry] = []
        try forEachSummary { entries.append($0) }
        return entries
    }

    /// Hands every run in the store to `visit`, oldest first, summarised as ``summaries()``
    /// summarises them, holding none of them: a check of every run costs the memory of one.
    ///
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory exists but cannot be
    ///   read. A store with no runs yet visits nothing.
    public func forEachSummary(_ visit: (SummaryEntry) -> Void) throws(JournalError) {
        try RunIndex(directory: directory, note: listingNote).forEachRun(visit)
    }

    /// The newest `limit` runs, newest first, summarised, with how many runs the store holds
    /// and the runs made from those by `rerun ID --from STEP`: a page of a listing, at a cost
    /// that does not include a summary of every run.
    ///
    /// Each run listed is checked against its journal as ``summaries()`` checks it; the others
    /// are only counted.
    ///
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory exists but cannot be
    ///   read. A store with no runs yet has an empty page.
    public func newestSummaries(_ limit: Int) throws(JournalError) -> SummaryPage {
        try RunIndex(directory: directory, note: listingNote).newest(limit)
    }

    /// A page of a listing (``newestSummaries(_:)``).
    public struct SummaryPage: Sendable {
        /// The runs listed, newest first.
        public let runs: [SummaryEntry]
        /// How many runs the store holds.
        public let total: Int
        /// The runs made from those listed by `rerun ID --from STEP`, oldest first.
        public let reruns: [SummaryEntry]
    }

    /// The runs made from `id` by `rerun ID --from STEP`, oldest first, as ``summaries()``
    /// would list them, at a cost that does not include a summary of every run.
    ///
    /// A run's origin is in its journal's header, which never changes, so the index says which
    /// journals it knows are reruns of `id` without checking the others; journals it does not
    /// know yet are read.
    ///
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory exists but cannot be
    ///   read. A store with no runs yet has none.
    public func reruns(of id: RunID) throws(JournalError) -> [SummaryEntry] {
        try RunIndex(directory: directory, note: listingNote).reruns(of: id)
    }

    /// One run in a summary listing.
    public struct SummaryEntry: Sendable {
        /// The run's id (its file name).
        public let id: RunID
        /// The run's summary, or why its journal cannot be read.
        public let summary: Result<RunSummary, JournalError>
        /// The journal's stamp when the summary was read: while it is unchanged, so is the
        /// summary (``RunStore/removeRuns(where:)`` need not read the journal again).
        let stamp: FileStamp?
        /// For a run that undid its finished steps, their names (``RunIndex/CachedRun/undone``).
        let undone: [String]?

        init(id: RunID, summary: Result<RunSummary, JournalError>, stamp: FileStamp? = nil, undone: [String]? = nil) {
            self.id = id
            self.summary = summary
            self.stamp = stamp
            self.undone = undone
        }

        /// The entry an index entry stands for (``RunIndex/Entry/summary(id:path:url:)``).
        init(id: RunID, _ entry: RunIndex.Entry, path: String, url: () -> URL) {
            self.init(
                id: id, summary: entry.summary(id: id, path: path, url: url), stamp: entry.stamp,
                undone: entry.run?.undone)
        }
    }
}
