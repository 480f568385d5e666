public import Foundation
public import Operations

/// A directory of journaled runs, `<state-dir>/runs/<run-id>.jsonl`, shared safely by several
/// processes.
///
/// Each run is its own file, created exclusively (`O_EXCL`), and the listing is the directory
/// itself, so two processes creating, writing and listing runs at once cannot corrupt each
/// other's records. A live run holds a lock on its file, which is how a listing tells a running
/// run from one whose process died (``RunStatus/interrupted``). ``summaries()`` lists quickly
/// through a cache of summaries, `index.cache`, checked against every journal it describes;
/// ``removeRuns(where:)`` prunes runs with their sibling files (`<id>.<anything>`).
///
/// ```swift
/// let store = RunStore(stateDirectory: stateDirectory)
/// let journal = try store.create(scenario: "AuthScenario")
/// …
/// let statuses = try store.runs().map { ($0.id, (try? $0.record.get())?.status) }
/// ```
public struct RunStore: Sendable {
    /// The directory holding the journals.
    public let directory: URL

    /// The file name extension of journals.
    static let fileExtension = "jsonl"

    /// Seals the values of its runs that hold secrets (see ``JournalSealer``).
    public let sealer: (any JournalSealer)?

    /// The data-protection class of the runs directory and every journal this store creates
    /// (``FileProtection``); their sync and park marks and the index take the directory's.
    public let fileProtection: FileProtection

    /// A program's note on each run, computed from its journal when a listing reads it and
    /// kept in the index beside its summary (``RunSummary/listingNote``): what a listing shows
    /// of a run beyond its summary (a runner's hint to go on) without reading its journal again.
    /// The note of a journal still being written must not depend on whether it is: such a
    /// journal is cached as it stands, so a rule should say nothing of a run without an end.
    public var listingNote: (@Sendable (JournalRecord) -> String?)?

    /// The drafts of runs a killed process left, removed as this store was opened
    /// (``removeAbandonedDrafts()``).
    public let removedDrafts: [String]

    /// Opens a store; nothing is created on disk until the first run.
    ///
    /// Opening removes the drafts of runs a killed process left (they hold the input of the
    /// run they were to start) and never a draft a live process holds
    /// (``removeAbandonedDrafts()``); ``removedDrafts`` names them. It lists the drafts'
    /// folder, not the runs, so it costs the same however many runs the store holds.
    ///
    /// - Parameters:
    ///   - stateDirectory: The application's state directory; runs live in its `runs`
    ///     subdirectory.
    ///   - sealer: Seals the step values that hold secrets in the journals this store creates
    ///     and opens them on resume; without one, such values are withheld and their steps
    ///     launched again on resume.
    ///   - fileProtection: The data-protection class of its files on the iOS family (e.g.
    ///     ``FileProtection/completeUnlessOpen`` for runs that go on while the device is locked);
    ///     ``FileProtection/inherited`` by default, and no effect on other platforms.
    public init(
        stateDirectory: URL, sealer: (any JournalSealer)? = nil, fileProtection: FileProtection = .inherited
    ) {
        self.directory = stateDirectory.appendingPathComponent("runs", isDirectory: true)
        self.sealer = sealer
        self.fileProtection = fileProtection
        self.removedDrafts = Self.removeAbandonedDrafts(in: directory)
    }

    /// Creates the journal of a new run with a fresh id that records only the scenario's name,
    /// no shape: what journals of older builds were, kept for the tests that read them (see
    /// ``create(scenario:settings:input:durability:)``).
    package func create(scenario: String, durability: ScenarioJournal.Durability = .buffered) throws(JournalError)
        -> ScenarioJournal
    {
        try create(named: scenario, durability: durability)
    }

    /// Creates the journal of a new run of `scenario`, recording its shape and the host's
    /// settings in the header so that a later build resumes the run only with a scenario of the
    /// same shape (``resume(_:scenario:relaunchingInDoubt:durability:)``).
    ///
    /// The header, shape and settings are one line, written and synced as the file is created.
    ///
    /// ```swift
    /// let journal = try store.create(scenario: authScenario, settings: ["backend": "simulated"])
    /// ```
    ///
    /// - Parameters:
    ///   - scenario: The scenario the run launches (or its shape).
    ///   - settings: What the host needs to run the scenario again (a backend, a choice made on
    ///     the command line); never secrets.
    ///   - input: The input the run will be launched with, when the host knows it now: it goes
    ///     into the header line, durable with the shape and settings, so a process killed
    ///     before the scenario starts still leaves a run that can be resumed without asking for
    ///     it again. Recorded like a step's input (a non-`Encodable` one as not recorded).
    ///   - durability: Buffered (default) or durable.
    /// - Returns: The open journal; its ``ScenarioJournal/runID`` names the run.
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory or file cannot be
    ///   created or written.
    public func create(
        scenario: some ScenarioShapeProviding, settings: [String: String] = [:], input: (any Sendable)? = nil,
        durability: ScenarioJournal.Durability = .buffered
    ) throws(JournalError) -> ScenarioJournal {
        let shape = scenario.shape
        return try create(named: shape.name, shape: shape, settings: settings, input: input, durability: durability)
    }

    private func create(
        named scenario: String, shape: ScenarioShape? = nil, settings: [String: String] = [:],
        input: (any Sendable)? = nil, durability: ScenarioJournal.Durability
    ) throws(JournalError) -> ScenarioJournal {
        // Ids carry 32 random bits, so a clash is already unlikely; an exclusive create turns
        // one into another try instead of two processes sharing a file.
        for _ in 0..<16 {
            let id = RunID.make()
            guard
                let journal = try ScenarioJournal.createIfAbsent(
                    at: url(for: id), runID: id, scenario: scenario, shape: shape, settings: settings, input: input,
                    durability: durability, createdAt: Date(), sealer: sealer)
            else { continue }
            // The journal, and the directory its marks are created in, take the store's
            // data-protection class before the run writes more than its header.
            guard fileProtection != .inherited else { return journal }
            do {
                try fileProtection.apply(to: directory)
                try fileProtection.apply(to: journal.url)
            } catch {
                try? journal.close()
                throw .io(journal.url, operation: "protect (\(fileProtection))", reason: "\(error)")
            }
            return journal
        }
        throw .io(directory, operation: "create a run in", reason: "every new run id was already taken")
    }

    /// Opens a run's journal to resume it with `scenario`, refusing before anything is written
    /// or launched when `check` would call the run stranded: the journal records no shape or
    /// another shape than the scenario's, or a step with side effects could act twice
    /// (``JournalRecord/checkResumable(by:relaunchingInDoubt:sealer:)``).
    ///
    /// - Parameters:
    ///   - id: The run.
    ///   - scenario: The scenario that will resume the run (or its shape).
    ///   - relaunchingInDoubt: The caller's word that a step with side effects in doubt may be
    ///     launched anyway (`rerun --relaunch-in-doubt`).
    ///   - durability: Buffered (default) or durable.
    /// - Returns: The open journal, with the run as it stood in ``ScenarioJournal/resumedFrom``.
    /// - Throws: ``JournalError/missingShape(_:scenario:)``, ``JournalError/shapeMismatch(_:_:)``,
    ///   ``JournalError/resumeRefused(_:_:)``, ``JournalError/unknownRun(_:directory:)``,
    ///   ``JournalError/runInProgress(_:)``, ``JournalError/alreadySucceeded(_:)``, or the
    ///   errors of ``ScenarioJournal/load(_:)``.
    public func resume(
        _ id: RunID, scenario: some ScenarioShapeProviding, relaunchingInDoubt: Bool = false,
        durability: ScenarioJournal.Durability = .buffered
    ) throws(JournalError) -> ScenarioJournal {
        try ScenarioJournal.resume(
            at: existing(id), shape: scenario.shape, relaunchingInDoubt: relaunchingInDoubt, durability: durability,
            sealer: sealer)
    }

    /// The journal file of a run.
    ///
    /// - Parameter id: The run.
    /// - Returns: `<directory>/<id>.jsonl`, whether or not it exists.
    public func url(for id: RunID) -> URL {
        directory.appendingPathComponent("\(id.rawValue).\(Self.fileExtension)", isDirectory: false)
    }

    /// Reads a run's journal.
    ///
    /// - Parameter id: The run.
    /// - Returns: Its record.
    /// - Throws: ``JournalError/unknownRun(_:directory:)`` when there is no such run; the
    ///   errors of ``ScenarioJournal/load(_:)`` otherwise.
    public func load(_ id: RunID) throws(JournalError) -> JournalRecord {
        try ScenarioJournal.load(existing(id))
    }

    /// Reads a run's journal as a resume would, skipping damaged lines after the header (see
    /// ``ScenarioJournal/loadSkippingDamage(_:)``).
    ///
    /// - Parameter id: The run.
    /// - Returns: Its record as its intact lines tell it, with ``JournalRecord/damagedLines``.
    /// - Throws: The errors of ``load(_:)``, except for a damaged line after the header.
    public func loadSkippingDamage(_ id: RunID) throws(JournalError) -> JournalRecord {
        try ScenarioJournal.loadSkippingDamage(existing(id))
    }

    /// Opens a run's journal to resume it without checking the shape of what resumes it: what
    /// the tests of journals without a shape use (see
    /// ``resume(_:scenario:relaunchingInDoubt:durability:)``).
    package func resume(_ id: RunID, durability: ScenarioJournal.Durability = .buffered) throws(JournalError)
        -> ScenarioJournal
    {
        try ScenarioJournal.resume(at: existing(id), durability: durability, sealer: sealer)
    }

    /// The journal file of run `id`; ``JournalError/unknownRun(_:directory:)`` when it has none.
    private func existing(_ id: RunID) throws(JournalError) -> URL {
        let url = url(for: id)
        guard JournalFile.exists(url) else { throw .unknownRun(id, directory: directory) }
        return url
    }

    /// Every run in the store, oldest first.
    ///
    /// A journal that cannot be read is listed with its error rather than failing the listing;
    /// a file another process has just created and not yet written is left out.
    ///
    /// - Returns: One entry per journal file.
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory exists but cannot be
    ///   read. A store with no runs yet lists nothing.
    public func runs() throws(JournalError) -> [Entry] {
        let index = RunIndex(directory: directory)
        let journals = try index.journals(index.load()) ?? []
        return journals.sorted { $0.id < $1.id }.compactMap { journal in
            do throws(JournalError) {
                return Entry(id: journal.id, record: .success(try ScenarioJournal.load(journal.url)))
            } catch {
                if case .notAJournal = error, JournalFile.isBeingWritten(journal.url) { return nil }
                return Entry(id: journal.id, record: .failure(error))
            }
        }
    }

    /// One run in a listing.
    public struct Entry: Sendable {
        /// The run's id (its file name).
        public let id: RunID
        /// The run's record, or why its journal cannot be read.
        public let record: Result<JournalRecord, JournalError>
    }
}
