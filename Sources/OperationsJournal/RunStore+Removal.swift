import Foundation
import Operations

extension RunStore {
    /// Removes the runs `shouldRemove` picks, with every file the run has in the store, and
    /// never a run a live process is writing.
    ///
    /// A run's files are its journal `<id>.jsonl` and every sibling named `<id>.<anything>`
    /// (a host keeps there what belongs to the run: its trace, its settings), plus temporaries
    /// `.<id>.<anything>.tmp` a killed writer left. Hosts that keep per-run files in the store
    /// should name them so, and removal takes them along.
    ///
    /// Each run is removed while its journal's lock is held, so no process can resume it in the
    /// middle; a journal that changed since the listing (its size, modification time or inode)
    /// is read again under the lock and `shouldRemove` asked again, so a run resumed or
    /// finished since the listing is judged as it now stands. Siblings go first and the journal
    /// last: a process killed during removal leaves a listed run that the next removal finishes,
    /// never files no listing shows. Journals that cannot be read are not offered to
    /// `shouldRemove` and are kept.
    ///
    /// ```swift
    /// let weekAgo = Date().addingTimeInterval(-7 * 86_400)
    /// let report = try store.removeRuns { $0.status == .succeeded && $0.lastActivityAt < weekAgo }
    /// ```
    ///
    /// - Parameter shouldRemove: Whether to remove a run; asked from the listing, and once more
    ///   under the run's lock when its journal changed since, so it must depend on the summary
    ///   alone. A run that is `running` is never offered.
    /// - Returns: What was removed, and what was left because a live process held it or a file
    ///   could not be removed.
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory cannot be listed.
    public func removeRuns(where shouldRemove: (RunSummary) -> Bool) throws(JournalError) -> RemovalReport {
        try removeRuns(among: summaries(), where: shouldRemove)
    }

    /// Removes the runs `shouldRemove` picks among `listed`, a listing of this store
    /// (``summaries()``) the caller has already made, as ``removeRuns(where:)`` removes them.
    ///
    /// The listing may be stale by the time a run is removed: each journal's stamp is compared
    /// under its lock with the listing's, and a run that changed since is read again and judged
    /// as it now stands, so a listing made earlier by the same process costs no second one.
    /// Runs created since the listing are not in it and are kept.
    ///
    /// - Returns: What ``removeRuns(where:)`` returns.
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory cannot be listed.
    public func removeRuns(
        among listed: [SummaryEntry], where shouldRemove: (RunSummary) -> Bool
    ) throws(JournalError) -> RemovalReport {
        let candidates = listed.compactMap { entry -> (RunSummary, FileStamp?)? in
            guard let summary = try? entry.summary.get(), summary.status != .running, shouldRemove(summary) else {
                return nil
            }
            return (summary, entry.stamp)
        }
        var report = RemovalReport()
        guard !candidates.isEmpty else { return report }
        let siblings = try siblingNames(of: Set(candidates.map(\.0.id)))
        for (candidate, stamp) in candidates {
            do throws(JournalError) {
                switch try remove(candidate, listedAt: stamp, siblings: siblings[candidate.id] ?? [], if: shouldRemove)
                {
                case .removed(let summary): report.removed.append(summary)
                case .inProgress: report.inProgress.append(candidate.id)
                case .keptOnSecondLook, .gone: break
                }
            } catch {
                report.failures.append(error)
            }
        }
        // A lock held only a moment was another remover's: the run is gone, not in progress.
        report.inProgress.removeAll { !JournalFile.exists(url(for: $0)) }
        return report
    }

    /// What ``removeRuns(where:)`` did.
    public struct RemovalReport: Sendable {
        /// The runs removed, as they stood when they were removed.
        public var removed: [RunSummary] = []
        /// Runs picked for removal whose lock another process held by then — a live writer that
        /// resumed it, or another remover still at work on it: kept by this removal.
        public var inProgress: [RunID] = []
        /// Files that could not be removed, in words; their runs may be partly removed and are
        /// still listed while their journal remains.
        public var failures: [JournalError] = []

        /// An empty report.
        public init() {}
    }

    // MARK: - Internals

    private enum Removal {
        case removed(RunSummary)
        case inProgress
        case keptOnSecondLook
        case gone
    }

    /// Removes the run `listed` summarises, unless it changed since the listing (its journal's
    /// stamp then differs from `stamp`) and `shouldRemove` no longer picks it.
    private func remove(
        _ listed: RunSummary, listedAt stamp: FileStamp?, siblings: [String], if shouldRemove: (RunSummary) -> Bool
    ) throws(JournalError) -> Removal {
        let id = listed.id
        let journal = url(for: id)
        let lock: Int32?
        do {
            lock = try JournalFile.lockForRemoval(journal)
        } catch {
            if !JournalFile.exists(journal) { return .gone }
            throw error
        }
        guard let lock else { return .inProgress }
        defer { JournalFile.closeDescriptor(lock) }
        // Another remover may have taken it between this one's opening and locking it: the
        // lock then holds a file no longer in the store.
        guard JournalFile.exists(journal) else { return .gone }
        // Under the lock nobody writes the journal. Unchanged since the listing, it says what
        // the listing read (and a run listed unfinished was listed interrupted: nobody held
        // it); changed, it is read again, an unfinished run now reading as interrupted.
        let summary: RunSummary
        if let stamp, FileStamp(of: journal) == stamp, listed.status != .running {
            summary = listed
        } else {
            let record = try JournalReader.parse(
                JournalFile.readAll(journal), url: journal, mark: SyncMark.read(for: journal), isBeingWritten: false)
            summary = RunSummary(record, id: id)
            guard shouldRemove(summary) else { return .keptOnSecondLook }
        }
        for name in siblings {
            try JournalFile.removeFile(directory.appendingPathComponent(name, isDirectory: false))
        }
        try JournalFile.removeFile(journal)
        return .removed(summary)
    }

    /// The names of the files beside each run's journal that belong to it.
    private func siblingNames(of ids: Set<RunID>) throws(JournalError) -> [RunID: [String]] {
        var siblings: [RunID: [String]] = [:]
        let journalSuffix = ".\(Self.fileExtension)"
        for name in try JournalFile.names(in: directory) ?? [] {
            let isTemporary = name.hasPrefix(".") && name.hasSuffix(".tmp")
            let bare = isTemporary ? name.dropFirst() : name[...]
            guard let dot = bare.firstIndex(of: "."), let id = try? RunID(validating: String(bare[..<dot])),
                ids.contains(id), isTemporary || bare[dot...] != journalSuffix
            else { continue }
            siblings[id, default: []].append(name)
        }
        return siblings
    }
}

extension RunStore {
    /// Removes the drafts of runs a killed process left: the hidden `.<id>.jsonl.<random>.tmp`
    /// a run's journal is written under until its header is complete (they hold the run's
    /// input, a phone number), and the second name a process killed while publishing one left.
    /// A draft a live process holds (its lock) is kept, so a creation under way is never
    /// disturbed (`DraftFile`, in DraftFile.swift). Drafts are made in a folder of their own,
    /// `.drafts`; this also removes those an older version left beside the journals. Opening a
    /// store does this for the drafts folder, and a listing (``summaries()``) for what is
    /// beside the journals; a long-lived process that keeps one store open calls it again.
    ///
    /// - Returns: The names of the files removed.
    @discardableResult
    public func removeAbandonedDrafts() -> [String] {
        (Self.removeAbandonedDrafts(in: directory)
            + DraftFile.removeAbandoned(in: directory, finalNames: Self.isJournalName))
            .sorted()
    }

    /// The same for the drafts folder of the store in `directory`, as it is opened: a listing
    /// of the drafts, not of the runs, so opening costs the same however many runs there are.
    static func removeAbandonedDrafts(in directory: URL) -> [String] {
        DraftFile.removeAbandoned(in: JournalFile.draftFolder(in: directory), finalNames: isJournalName)
    }

    /// Whether `name` is a journal's file name, `<run id>.jsonl`.
    static func isJournalName(_ name: Substring) -> Bool {
        let journalSuffix = ".\(fileExtension)"
        return name.hasSuffix(journalSuffix)
            && (try? RunID(validating: String(name.dropLast(journalSuffix.count)))) != nil
    }
}
