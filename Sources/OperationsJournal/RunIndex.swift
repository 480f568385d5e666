import Foundation
import Operations

/// A cache of run summaries beside the journals, `<runs>/index.cache`, so that listing a run
/// directory reads only the journals that changed since the last listing.
///
/// The index is a cache, never the truth. A listing is always driven by the directory itself:
/// every `<run-id>.jsonl` file is listed, a journal missing from the index or whose
/// ``FileStamp`` (size, modification time, inode) differs from its entry is read again, and
/// entries of deleted files are dropped. The status of a run with no recorded end is never
/// cached: it depends on whether a live process holds the journal's lock, asked at each
/// listing. So an index that is stale, from another process, or lost costs reading time and
/// never a wrong or missing run.
///
/// ## Format
///
/// A header line with the format's name and version, the entry count and a checksum of the
/// rest, then one tab-separated line per journal (``Codec``). The checksum and count catch
/// garbage, truncation and a half-written file; any doubt and the index is ignored and rebuilt
/// from the journals. It is replaced atomically (an owner-only temporary renamed over it), so several processes
/// listing, creating and finishing runs at once can each write it: the last one wins and every
/// one of them is a valid cache. A process killed mid-write leaves only its temporary, which a
/// later listing removes once it is old.
struct RunIndex {
    static let fileName = "index.cache"
    static let format = "operations.run-index"
    /// Raised whenever what a summary holds, or how it is derived from a journal, changes.
    /// Version 3 added each run's `rerunOf`; version 4 the steps an undone run undid, and lines
    /// of tab-separated fields instead of one JSON object; version 5 names the step of a run
    /// stopped while that step waited to retry, which lines before left without one. An index
    /// of an older version is rebuilt.
    static let version = 5
    /// A temporary older than this was left by a killed process, not one about to rename it.
    static let abandonedTemporaryAge: Int64 = 10 * 60 * 1_000_000_000

    /// The run directory.
    let directory: URL
    /// The store's note on each run read (``RunStore/listingNote``).
    var note: (@Sendable (JournalRecord) -> String?)? = nil

    /// The index file.
    var url: URL { directory.appendingPathComponent(Self.fileName, isDirectory: false) }

    /// Hands every run in the directory to `visit`, oldest first, from the index where it is
    /// still valid and from the journals elsewhere, holding nothing per run but its name and
    /// its line of the index; saves the index when anything changed.
    ///
    /// A journal that cannot be read is listed with its error; a file another process has just
    /// created and not yet written, or one removed during the listing, is left out.
    ///
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory exists but cannot
    ///   be listed. Failing to save the index is not an error: the listing is right without it.
    func forEachRun(_ visit: (RunStore.SummaryEntry) -> Void) throws(JournalError) {
        let cached = load()
        guard let journals = try journals(cached) else { return }
        var saved = Codec.Body()
        var changed = false
        for journal in journals.sorted(by: { $0.id < $1.id }) {
            guard let stamp = FileStamp(path: journal.path) else {
                changed = true
                continue
            }
            if let line = cached.line(journal.name), Codec.stamp(in: line) == stamp,
                let entry = Codec.entry(in: line)
            {
                saved.append(line: line)
                visit(journal.entry(entry))
                continue
            }
            changed = true
            let reading = read(journal.url, id: journal.id, stamp: stamp)
            if case .cacheable(let entry) = reading { saved.append(name: journal.name, entry) }
            if let entry = reading.entry(of: journal) { visit(entry) }
        }
        // Every saved line came from the cache or was read now; equal counts with nothing read
        // means the same set, so an unchanged directory costs no write.
        if changed || saved.count != cached.count { try? save(saved) }
    }

    // MARK: - The directory

    /// A journal file of the directory.
    struct Journal {
        let id: RunID
        let name: String
        /// The directory's path, ending in `/`.
        let base: String

        var path: String { base + name }
        var url: URL { URL(fileURLWithPath: path, isDirectory: false) }

        /// The listing's entry for the journal, from its index entry.
        func entry(_ entry: Entry) -> RunStore.SummaryEntry {
            RunStore.SummaryEntry(id: id, entry, path: path, url: { url })
        }
    }

    /// The directory's path, ending in `/`.
    var base: String { directory.path.hasSuffix("/") ? directory.path : directory.path + "/" }

    /// The journal called `name` in the directory whose path is `base`, when `name` is a
    /// journal's (`<run id>.jsonl`).
    func journal(named name: String, base: String) -> Journal? {
        guard name.hasSuffix(".\(RunStore.fileExtension)"),
            let id = try? RunID(validating: String(name.dropLast(RunStore.fileExtension.count + 1)))
        else { return nil }
        return Journal(id: id, name: name, base: base)
    }

    /// The journals in the directory, in no order; `nil` when there is no directory. They are
    /// `cached`'s own names, unlisted, while ``Seen`` vouches for them; otherwise the directory
    /// is listed, what killed processes left beside them removed
    /// (``removeIfAbandonedTemporary(_:)``), and the listing vouched for when it found exactly
    /// `cached`'s names.
    func journals(_ cached: Codec.Lines) throws(JournalError) -> [Journal]? {
        guard let modified = FileStamp(path: directory.path)?.modified else { return nil }
        let base = base
        if let seen = Seen(of: seenURL), seen.directory == modified, !seen.isRacy, seen.index == cached.checksum {
            return cached.names { _ in true }.compactMap { journal(named: $0, base: base) }
        }
        let listed = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        guard let names = try JournalFile.names(in: directory) else { return nil }
        var journals: [Journal] = []
        for name in names {
            guard name.hasSuffix(".\(RunStore.fileExtension)") else {
                removeIfAbandonedTemporary(name)
                continue
            }
            if let journal = journal(named: name, base: base) { journals.append(journal) }
        }
        let seen = Seen(directory: modified, listed: listed, index: cached.checksum)
        if !seen.isRacy, journals.count == cached.count, journals.allSatisfy({ cached.line($0.name) != nil }) {
            seen.write(to: seenURL)
        }
        return journals
    }

    /// The journal's entry from its index line, checked against its stamp and read again when
    /// it changed; `nil` when it is gone or no longer reads as a run.
    func checked(_ journal: Journal, line: ArraySlice<UInt8>) -> RunStore.SummaryEntry? {
        guard let stamp = FileStamp(path: journal.path) else { return nil }
        if Codec.stamp(in: line) == stamp, let entry = Codec.entry(in: line) { return journal.entry(entry) }
        guard case .cacheable(let read) = read(journal.url, id: journal.id, stamp: stamp) else { return nil }
        return journal.entry(read)
    }

    // MARK: - Reading journals

    /// What reading one journal gave.
    enum Reading {
        /// The file is gone, or is being created and has no header yet: not listed.
        case absent
        /// A summary or a lasting error, to list and cache.
        case cacheable(Entry)
        /// An error of the moment (the file could not be opened): listed, not cached.
        case unreadableNow(JournalError)

        /// The listing's entry for `journal`; `nil` when it is not listed.
        func entry(of journal: Journal) -> RunStore.SummaryEntry? {
            switch self {
            case .absent: nil
            case .cacheable(let entry): journal.entry(entry)
            case .unreadableNow(let error): RunStore.SummaryEntry(id: journal.id, summary: .failure(error))
            }
        }
    }

    /// Reads the journal at `url`, whose stamp was taken before reading: a write after the
    /// stamp changes the stamp, so the entry is read again next time rather than trusted.
    func read(_ url: URL, id: RunID, stamp: FileStamp) -> Reading {
        do {
            let record = try JournalReader.read(url)
            let summary = RunSummary(record, id: id, listingNote: note?(record))
            return .cacheable(Entry(stamp: stamp, run: CachedRun(summary, of: record)))
        } catch {
            if case .notAJournal = error, JournalFile.isBeingWritten(url) { return .absent }
            if let failure = CachedFailure(error) { return .cacheable(Entry(stamp: stamp, failure: failure)) }
            return JournalFile.exists(url) ? .unreadableNow(error) : .absent
        }
    }

    // MARK: - The index file

    /// The lines of the index file; none when there is none or it cannot be trusted.
    func load() -> Codec.Lines {
        guard let bytes = try? JournalFile.readAll(url), let lines = Codec.Lines(bytes) else { return Codec.Lines() }
        return lines
    }

    /// Replaces the index file with `body`.
    func save(_ body: Codec.Body) throws(JournalError) {
        try JournalFile.replaceAtomically(url, with: body.file())
    }

    /// Removes a temporary of the index that a killed process left behind, and the draft of a
    /// journal an older version left beside the journals (``RunStore/removeAbandonedDrafts()``).
    private func removeIfAbandonedTemporary(_ name: String) {
        if let final = DraftFile.finalName(ofDraft: name), RunStore.isJournalName(final) {
            _ = DraftFile.removeIfAbandoned(directory.appendingPathComponent(name, isDirectory: false))
            return
        }
        guard name.hasPrefix(".\(Self.fileName)."), name.hasSuffix(".tmp") else { return }
        let temporary = directory.appendingPathComponent(name, isDirectory: false)
        guard let stamp = FileStamp(of: temporary) else { return }
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        if now - stamp.modified > Self.abandonedTemporaryAge { JournalFile.remove(temporary) }
    }
}
