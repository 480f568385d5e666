public import Foundation
public import Operations

/// An append-only log of one scenario run on disk, written as the run happens, from which a
/// failed or interrupted run can be resumed.
///
/// A journal is a `ScenarioObserver`: put it in the run's `OpEnvironment` (alone or in an
/// `ObserverGroup`) and it records the run's start with its input, every step's launch with
/// its input and attempt, every finish with its output or error, skipped and replayed steps, and
/// the run's end.
///
/// ## Format
///
/// JSON Lines: a header line, then one event per line, each ending with where it stands (its
/// place in the file, the checksum of the line before it) and its checksum; after each sync, a
/// mark beside the file (`<file>.synced`) records the last line synced, so a journal that lost
/// lines is refused instead of resumed (``JournalError/linesLost(_:_:)``). The format is
/// described once, in Docs/Architecture.md ("The journal format"); its field names are declared
/// in `JournalFormat`.
/// A ``JournalConfidential`` value never appears in clear: it is sealed by the run's
/// ``JournalSealer``, or withheld without one. A sealer that throws leaves the value out and
/// becomes the journal's error (``flush()``, ``close()``,
/// ``JournalError/sealingFailed(_:type:reason:)``).
///
/// Create a journal with the scenario it records and resume it with the scenario that goes on
/// with it: the journal keeps the scenario's shape, and a resume by a scenario of another shape
/// is refused before a step launches. In a ``RunStore``,
/// ``RunStore/create(scenario:settings:input:durability:)`` and
/// ``RunStore/resume(_:scenario:relaunchingInDoubt:durability:)``; at a file of your own,
/// ``create(at:runID:scenario:settings:input:durability:createdAt:sealer:)`` and
/// ``resume(at:shape:relaunchingInDoubt:durability:sealer:)``.
///
/// ```swift
/// let store = RunStore(stateDirectory: stateDirectory)
/// let journal = try store.create(scenario: scenario, input: phone)
/// let environment = OpEnvironment(observer: journal)
/// scenario.launch(OpContext(phone, environment: environment)) { result in
///     try? journal.close()
/// }
///
/// // Later, perhaps in another process:
/// let resumed = try store.resume(runID, scenario: scenario)
/// let input = try resumed.resumedFrom?.input(as: PhoneNumber.self)
/// let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
/// ```
///
/// Values are recorded with `Codable`: a value that is not `Encodable` is noted as not recorded,
/// and its step is launched again on resume rather than replayed. A journal may therefore hold
/// secrets; its file is created with mode 0600 and its directories 0700.
///
/// One journal records one run. Events from nested scenarios are recorded as steps at their
/// addresses (their own start and finish are implied by the containing step). The journal is
/// thread-safe (one lock per journal); each event is written whole, so lines never interleave. While it is open it
/// holds an advisory lock on its file, so readers can tell a live run from one whose process
/// died.
public final class ScenarioJournal: ScenarioObserver {
    /// The journal file.
    public let url: URL
    /// The run's id, as in the file's header.
    public let runID: RunID
    /// The scenario's name, as in the file's header.
    public let scenario: String
    /// For a resumed journal, the run as it stood before this process resumed it.
    public let resumedFrom: JournalRecord?

    private let durability: Durability
    private let io: JournalIO
    /// Whether the resume was told to launch a step with side effects in doubt anyway.
    private let relaunchingInDoubt: Bool
    /// Seals the values that hold secrets; without one, the journal withholds them.
    private let sealer: (any JournalSealer)?
    private let state: LockedState<State>
    /// Names this journal object in its `ParkMark`.
    private let token = UUID().uuidString

    /// Bytes gathered in memory before they are written even without a commit point.
    static let bufferLimit = 64 * 1024

    private struct State {
        var descriptor: Int32?
        /// Complete lines not yet written to the file.
        var lines: [UInt8] = []
        /// The file's lines as written, which ``history`` reads instead of the file.
        var written: [UInt8] = []
        /// The address of the journaled scenario, learned from its start event.
        var root: StepAddress?
        var runInFlight = false
        var interruptionNoted = false
        /// The steps launched and not finished, to tell whether a part of the run other than the
        /// one waiting could have had a request on its way when the run was interrupted.
        var stepsInFlight: Set<StepAddress> = []
        /// Whether the interruption came while the run's one step in flight waited for a person
        /// or a deadline (parked): no request was on its way, so its cancellation is certain.
        var interruptedWhileWaiting = false
        /// Whether bytes were written since the last sync, so a sync with nothing new is skipped.
        var unsynced = false
        var error: JournalError?
        /// The place the next line takes in the file (the header is 1), and the checksum of the
        /// line before it: where each line says it stands (``LinePosition``).
        var nextLine = 1
        var previousSum: UInt32?
        /// Where each sync is marked (``SyncMark``); `nil` while the journal is a draft, whose
        /// final name may yet turn out to be another run's.
        var mark: MarkFile?
        /// How many parts of the run wait outside it now (``runParked()``).
        var parked = 0
        /// The file as it was when the lock was let go of, while the run is parked without it;
        /// `nil` while the lock is held.
        var released: FileStamp?
        /// Where the run is marked parked (`ParkMark`); made at the first park.
        var parkMark: ParkMark.Writer?

        /// Ends `line` where it stands in the file and adds it to the lines to write.
        mutating func append(_ line: inout JournalLine) {
            previousSum = line.end(at: LinePosition(sequence: nextLine, previous: previousSum))
            nextLine += 1
            lines += line.bytes
        }

        /// Lets go of the file and of its marks.
        mutating func closeFile() {
            if let descriptor { JournalFile.closeDescriptor(descriptor) }
            descriptor = nil
            mark?.close()
            parkMark?.close()
        }

        /// Marks everything written as synced: called right after a sync succeeded, when every
        /// line appended has been written.
        mutating func markSynced() {
            guard let previousSum else { return }
            _ = mark?.write(SyncMark(line: nextLine - 1, sum: previousSum).record)
        }
    }

    private init(
        url: URL, runID: RunID, scenario: String, descriptor: Int32, durability: Durability,
        sealer: (any JournalSealer)?, resumedFrom: JournalRecord?, relaunchingInDoubt: Bool = false, io: JournalIO
    ) {
        self.io = io
        self.sealer = sealer
        self.relaunchingInDoubt = relaunchingInDoubt
        self.url = url
        self.runID = runID
        self.scenario = scenario
        self.durability = durability
        self.resumedFrom = resumedFrom
        self.state = LockedState(State(descriptor: descriptor))
    }

    deinit {
        // A journal dropped without `close()` still writes what it gathered and lets go of its
        // file; the run then reads as interrupted (no end event, no live lock).
        state.withLock { state in
            guard let descriptor = state.descriptor else { return }
            if state.released == nil, !state.lines.isEmpty, state.error == nil {
                _ = state.lines.withUnsafeBytes { io.write($0, descriptor) }
            }
            // Dropped while parked: the run's mark goes with it, if it is still this journal's.
            state.closeFile()
        }
    }

    // MARK: - Creating, resuming, loading

    /// Creates a journal for a new run of `scenario` at `url`; fails if the file exists.
    ///
    /// The header records the scenario's shape and `settings` (and `input`, when given), so a
    /// later build resumes the run only with a scenario of the same shape
    /// (``resume(at:shape:relaunchingInDoubt:durability:sealer:)``). Missing directories are
    /// created with mode 0700, the file with mode 0600. The header is written and synced under a
    /// hidden temporary name that is then linked into place, so the file never exists without it.
    ///
    /// - Parameters:
    ///   - url: The journal file to create.
    ///   - runID: The run's id; a fresh one by default.
    ///   - scenario: The scenario the run launches (or its shape).
    ///   - settings: What the host needs to run the scenario again; never secrets.
    ///   - input: The input the run will be launched with, when the host knows it now.
    ///   - durability: Buffered (default) or durable.
    ///   - createdAt: The creation time written in the header.
    ///   - sealer: Seals the values that hold secrets (see ``JournalSealer``); without one, the
    ///     journal withholds them.
    /// - Returns: An open journal; close it with ``close()`` when the run has finished.
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the file exists or cannot be
    ///   created or written.
    public static func create(
        at url: URL, runID: RunID = .make(), scenario: some ScenarioShapeProviding, settings: [String: String] = [:],
        input: (any Sendable)? = nil, durability: Durability = .buffered, createdAt: Date = Date(),
        sealer: (any JournalSealer)? = nil
    ) throws(JournalError) -> ScenarioJournal {
        let shape = scenario.shape
        return try new(
            createIfAbsent(
                at: url, runID: runID, scenario: shape.name, shape: shape, settings: settings, input: input,
                durability: durability, createdAt: createdAt, sealer: sealer), at: url)
    }

    /// Creates a journal whose writes and syncs go through `io` (the fault explorer's disk),
    /// recording the scenario's shape and input when given, as a runner does. One with the
    /// scenario's name only is what journals of older builds were, kept for the tests that read
    /// them: a resume of it is refused (``JournalError/missingShape(_:scenario:)``) unless made
    /// without a shape check.
    package static func create(
        at url: URL, runID: RunID = .make(), scenario: String, shape: ScenarioShape? = nil,
        input: (any Sendable)? = nil, sealer: (any JournalSealer)? = nil, durability: Durability = .buffered,
        createdAt: Date = Date(), io: JournalIO = .system
    ) throws(JournalError) -> ScenarioJournal {
        try new(
            createIfAbsent(
                at: url, runID: runID, scenario: scenario, shape: shape, input: input, durability: durability,
                createdAt: createdAt, sealer: sealer, io: io), at: url)
    }

    /// Opens the journal of an earlier run to resume it with a scenario of `shape`: appends a
    /// `resumed` marker and keeps what the journal held in ``resumedFrom``. Refused, with
    /// nothing written to the file, when the journal records no shape or another one, or
    /// when a step with side effects the run would reach could act twice — the decision
    /// `check` takes too (``JournalRecord/checkResumable(by:relaunchingInDoubt:sealer:)``), on
    /// the journal as read here under its lock.
    ///
    /// A torn last line left by a killed process is cut off first, so the events this process
    /// appends follow an intact line and take the places after it.
    ///
    /// - Parameters:
    ///   - url: The journal file.
    ///   - shape: The shape of the scenario that will resume the run (`Scenario/shape`).
    ///   - relaunchingInDoubt: The caller's word that a step with side effects in doubt may be
    ///     launched anyway; ``replay`` then launches it too.
    ///   - durability: Buffered (default) or durable.
    ///   - sealer: Opens the values the run sealed and seals new ones (see ``JournalSealer``).
    /// - Returns: An open journal; use ``replay`` in the resumed run's environment.
    /// - Throws: ``JournalError/missingShape(_:scenario:)``,
    ///   ``JournalError/shapeMismatch(_:_:)``, ``JournalError/resumeRefused(_:_:)``;
    ///   ``JournalError/runInProgress(_:)`` when a live process is writing the run;
    ///   ``JournalError/alreadySucceeded(_:)`` when the run has succeeded (perhaps while this
    ///   waited for its lock); the errors of ``load(_:)`` when the file is not a readable journal.
    public static func resume(
        at url: URL, shape: ScenarioShape, relaunchingInDoubt: Bool = false, durability: Durability = .buffered,
        sealer: (any JournalSealer)? = nil
    ) throws(JournalError) -> ScenarioJournal {
        try resume(
            at: url, expecting: shape, relaunchingInDoubt: relaunchingInDoubt, durability: durability, sealer: sealer)
    }

    /// Resumes a journal whose writes and syncs go through `io` (the fault explorer's disk);
    /// without a shape to expect, the shape of what resumes it is not checked (the tests of
    /// journals without one).
    package static func resume(
        at url: URL, expecting shape: ScenarioShape? = nil, relaunchingInDoubt: Bool = false,
        durability: Durability = .buffered, sealer: (any JournalSealer)? = nil, io: JournalIO = .system
    ) throws(JournalError) -> ScenarioJournal {
        let descriptor = try JournalFile.openForAppending(url)
        do throws(JournalError) {
            // Read under the lock: nobody else can append between reading and resuming.
            // Damaged lines are skipped and named in the resumed line, so that later reads skip
            // them too; the replay then treats steps with side effects with suspicion.
            let mark = try SyncMark.read(for: url)
            let bytes = try JournalFile.readAll(url)
            let record = try JournalReader.parse(
                bytes, url: url, mark: mark, isBeingWritten: false, skippingDamage: true)
            if let shape {
                try record.checkResumable(by: shape, relaunchingInDoubt: relaunchingInDoubt, sealer: sealer)
            }
            // Read under the lock, this is the run as it stands now: a writer may have finished
            // it while the caller, which read it as running, waited for the lock.
            if record.status == .succeeded { throw .alreadySucceeded(url) }
            // Undone stays undone: a resume would replay the undone steps' outputs as if they
            // still held, and go on past the undoing.
            if record.isUndone { throw .alreadyUndone(url, undone: record.undoneSteps.map(\.name)) }
            // A compatible change (steps after those the run reached): the resumed session
            // records this build's shape, and later resumes compare against it.
            let reshaped = shape.flatMap { $0.fingerprint == record.shape?.fingerprint ? nil : $0 }
            let reshapedJSON = try reshaped.map { shape throws(JournalError) in
                try encoded(shape, "the scenario's shape", url: url)
            }
            if record.ignoredTornLine { try JournalFile.truncate(descriptor, to: record.intactLength, url: url) }
            let journal = ScenarioJournal(
                url: url, runID: record.runID, scenario: record.scenario, descriptor: descriptor,
                durability: durability, sealer: sealer, resumedFrom: record, relaunchingInDoubt: relaunchingInDoubt,
                io: io)
            try journal.state.withLock { state throws(JournalError) in
                // The torn tail, if any, is cut off: the next line takes the place after the
                // last complete one.
                state.nextLine = record.lineCount + 1
                state.previousSum = record.lastLineSum
                state.written = Array(bytes.prefix(record.intactLength))
                state.mark = MarkFile(SyncMark.url(for: url))
                var line = JournalLine(.resumed)
                line.field("session", int: record.sessions + 1)
                if !record.damagedLines.isEmpty {
                    line.field(
                        "skippedLines",
                        json: "[\(record.damagedLines.map { String($0.line) }.joined(separator: ","))]".utf8)
                }
                if let reshaped, let reshapedJSON { line.field(shape: reshaped, json: reshapedJSON) }
                state.append(&line)
                journal.commit(&state, sync: true)
                if let error = state.error {
                    // The descriptor is closed once, below: a journal dropped with it would
                    // close it again when it goes, perhaps after the number went to another file.
                    state.descriptor = nil
                    state.mark?.close()
                    throw error
                }
            }
            return journal
        } catch {
            JournalFile.closeDescriptor(descriptor)
            throw error
        }
    }

    /// Reads a journal.
    ///
    /// - Parameter url: The journal file.
    /// - Returns: The run it records. A torn last line past the last sync is ignored
    ///   (``JournalRecord/ignoredTornLine``).
    /// - Throws: ``JournalError/notAJournal(_:reason:)`` for random bytes, another JSON file or
    ///   an empty file; ``JournalError/unsupportedVersion(_:found:supported:)``;
    ///   ``JournalError/damaged(_:line:reason:)`` for a bad line before the last;
    ///   ``JournalError/linesLost(_:_:)`` for a line missing, repeated or out of place, or a
    ///   journal that ends before the last line it synced;
    ///   ``JournalError/io(_:operation:reason:)`` when it cannot be read.
    public static func load(_ url: URL) throws(JournalError) -> JournalRecord {
        try JournalReader.read(url)
    }

    /// Reads a journal as a resume would: damaged lines after the header are skipped and listed
    /// in ``JournalRecord/damagedLines`` instead of refused, so a caller can say what a resume
    /// will do without them.
    ///
    /// - Parameter url: The journal file.
    /// - Returns: The run as its intact lines record it.
    /// - Throws: The errors of ``load(_:)``, except for a damaged line after the header; lost
    ///   lines are refused all the same (``JournalError/linesLost(_:_:)``).
    public static func loadSkippingDamage(_ url: URL) throws(JournalError) -> JournalRecord {
        try JournalReader.read(url, skippingDamage: true)
    }

    /// The run as this journal wrote it, every session of it: the lines written parsed from
    /// memory, not read back from the file, so the end of a run reads the history it recorded
    /// (a failed run does not read its journal again); `nil` when they do not read as a journal.
    package var history: JournalRecord? {
        let (written, isOpen) = state.withLock { ($0.written, $0.descriptor != nil) }
        return try? JournalReader.parse(written, url: url, mark: nil, isBeingWritten: isOpen)
    }

    /// Replays the steps the resumed run completed; `nil` for a journal of a new run. A step
    /// with side effects in doubt is launched only when the resume was told so.
    public var replay: JournalReplay? { replay(relaunchingInDoubt: relaunchingInDoubt) }

    /// Replays the steps the resumed run completed, choosing what happens to a step with side
    /// effects left in doubt without an idempotency key (see ``JournalReplay``).
    ///
    /// - Parameter relaunchingInDoubt: Launch such a step anyway instead of stopping before it.
    /// - Returns: The replay; `nil` for a journal of a new run.
    public func replay(relaunchingInDoubt: Bool) -> JournalReplay? {
        resumedFrom.map { JournalReplay($0, relaunchingInDoubt: relaunchingInDoubt, sealer: sealer) }
    }

    // MARK: - Recording

    /// Records one event of the run.
    ///
    /// The line is encoded into memory; the file is written when a step's attempt finishes and
    /// when the run starts or ends (and synced in durable mode when a step completes and when
    /// the run ends). Failures to write are kept for ``flush()`` and ``close()``.
    ///
    /// - Parameter event: What happened; events after ``close()`` are ignored.
    public func scenario(_ event: ScenarioEvent) {
        state.withLock { state in
            guard state.descriptor != nil else { return }
            switch record(event, into: &state) {
            case .none where state.lines.count >= Self.bufferLimit: commit(&state, sync: false)
            case .none: break
            case .write: commit(&state, sync: false)
            case .writeAndSync: commit(&state, sync: true)
            case .writeAhead: commit(&state, sync: true, evenIfBuffered: true)
            }
        }
    }

    /// The first error writing or syncing the file met, which stops the run before its next
    /// launch (see `ScenarioObserver/haltingError`).
    public var haltingError: (any Error)? {
        state.withLock { $0.error }
    }

    /// Records that the host is stopping the run (Ctrl-C): the cancellation that follows ends
    /// the run as `interrupted` rather than `cancelled`, which reads as resumable.
    public func noteInterruption() {
        state.withLock { state in
            state.interruptionNoted = true
            // Only the innermost steps act; a scenario step is in flight around its own.
            let innermost = state.stepsInFlight.filter { step in
                !state.stepsInFlight.contains { $0.path.count > step.path.count && $0.path.starts(with: step.path) }
            }
            state.interruptedWhileWaiting = state.parked > 0 && innermost.count <= 1
        }
    }

    /// Writes the gathered events to the file, and syncs it in durable mode.
    ///
    /// - Throws: The first error writing or syncing met since the journal was opened; a journal
    ///   records no error from the observer call itself, which cannot throw.
    public func flush() throws(JournalError) {
        try state.withLock { state throws(JournalError) in
            commit(&state, sync: true)
            if let error = state.error { throw error }
        }
    }

    /// Finishes the journal and releases its file.
    ///
    /// A run still in flight is recorded as `interrupted` first (the host is going away without
    /// its end), so it can be resumed. Later events are ignored; closing twice does nothing.
    ///
    /// - Throws: The first error writing or syncing met since the journal was opened.
    public func close() throws(JournalError) {
        try state.withLock { state throws(JournalError) in
            guard state.descriptor != nil else { return }
            if state.runInFlight {
                state.runInFlight = false
                var line = JournalLine(.runFinished)
                line.field("status", string: RunStatus.interrupted.rawValue)
                state.append(&line)
            }
            commit(&state, sync: true)
            state.closeFile()
            if let error = state.error { throw error }
        }
    }

    // MARK: - Internals

    /// What an event asks of the file after it is appended to the buffer.
    private enum Commit {
        case none
        case write
        case writeAndSync
        /// Write and sync in either durability: the launch of a step with side effects.
        case writeAhead
    }

    /// Encodes shapes and settings for the header and the `resumed` line, keys sorted so the
    /// bytes are stable.
    private static var headerEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as the header or a `resumed` line records it; `what` names it when it cannot be.
    private static func encoded(
        _ value: some Encodable, _ what: String, url: URL, operation: String = "write"
    ) throws(JournalError) -> Data {
        do {
            return try headerEncoder.encode(value)
        } catch {
            throw .io(url, operation: operation, reason: "\(what) cannot be encoded: \(error)")
        }
    }

    static func createIfAbsent(
        at url: URL, runID: RunID, scenario: String, shape: ScenarioShape? = nil, settings: [String: String] = [:],
        input: (any Sendable)? = nil, durability: Durability, createdAt: Date, sealer: (any JournalSealer)?,
        io: JournalIO = .system
    ) throws(JournalError) -> ScenarioJournal? {
        let shapeJSON = try shape.map { shape throws(JournalError) in
            try encoded(shape, "the scenario's shape", url: url)
        }
        let settingsJSON =
            settings.isEmpty ? nil : try encoded(settings, "the run's settings", url: url, operation: "create")
        let directory = url.deletingLastPathComponent()
        try JournalFile.makeDirectory(directory)
        // Written and synced under a hidden name, then linked into place: the journal never
        // exists under its run's name without its header, whenever the process is killed.
        let draft = try JournalFile.createDraft(of: url)
        let journal = ScenarioJournal(
            url: url, runID: runID, scenario: scenario, descriptor: draft.descriptor, durability: durability,
            sealer: sealer, resumedFrom: nil, io: io)
        let failure = journal.state.withLock { state -> JournalError? in
            var line = JournalLine()
            line.field("format", string: JournalFormat.name)
            line.field("version", int: JournalFormat.version)
            line.field("run", string: runID.rawValue)
            line.field("scenario", string: scenario)
            line.field("createdAt", string: Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(createdAt))
            if let shape, let shapeJSON { line.field(shape: shape, json: shapeJSON) }
            if let settingsJSON { line.field("settings", json: settingsJSON) }
            journal.value(input, .input, &line, &state)
            state.append(&line)
            journal.commit(&state, sync: true)
            return state.error
        }
        /// Lets go of the draft's descriptor unwritten, and of the draft.
        func abandon() {
            journal.state.withLock { state in
                state.descriptor = nil
                state.lines.removeAll(keepingCapacity: true)
            }
            JournalFile.discard(draft)
        }
        if let failure {
            abandon()
            throw failure
        }
        let published: Bool
        do {
            published = try JournalFile.publish(draft, as: url)
        } catch {
            abandon()
            throw error
        }
        guard published else {
            // Another run took the id between our choosing it and linking: try another.
            abandon()
            return nil
        }
        if durability.guarantee != nil { JournalFile.syncDirectory(directory) }
        journal.state.withLock { $0.mark = MarkFile(SyncMark.url(for: url)) }
        return journal
    }

    /// The journal `createIfAbsent` made; refused when the file was already there.
    private static func new(_ journal: ScenarioJournal?, at url: URL) throws(JournalError) -> ScenarioJournal {
        guard let journal else { throw .io(url, operation: "create", reason: "a file with that name already exists") }
        return journal
    }

    /// Appends one event's line to the buffer.
    private func record(_ event: ScenarioEvent, into state: inout State) -> Commit {
        var line = JournalLine()
        let commit: Commit
        switch event.kind {
        case .scenarioStarted:
            // The first scenario to start is the journaled one; later starts at other
            // addresses are nested scenarios, already recorded as their steps.
            if let root = state.root, root != event.address { return .none }
            state.root = event.address
            state.runInFlight = true
            begin(.runStarted, event, &line, address: false)
            value(event.value, .input, &line, &state)
            commit = .write
        case .scenarioSucceeded:
            guard state.root == event.address else { return .none }
            state.runInFlight = false
            begin(.runFinished, event, &line, address: false)
            line.field("status", string: RunStatus.succeeded.rawValue)
            duration(event, &line)
            value(event.value, .output, &line, &state)
            commit = .writeAndSync
        case .scenarioFailed(let error):
            guard state.root == event.address else { return .none }
            state.runInFlight = false
            let status: RunStatus =
                error.isCancellation ? (state.interruptionNoted ? .interrupted : .cancelled) : .failed
            begin(.runFinished, event, &line, address: false)
            line.field("status", string: status.rawValue)
            duration(event, &line)
            recordError(error, &line, state)
            commit = .writeAndSync
        case .stepLaunched:
            state.stepsInFlight.insert(event.address)
            begin(.stepLaunched, event, &line)
            line.field("attempt", int: event.attempt)
            if let purity = event.purity { line.field("purity", string: purity.rawValue) }
            if let key = event.idempotencyKey { line.field("idempotencyKey", string: key.rawValue) }
            value(event.value, .input, &line, &state)
            // Write-ahead: a step with side effects may act as soon as it launches, so its launch
            // line — with its key — is on disk before the operation runs, whatever the durability.
            commit = event.purity == .sideEffects ? .writeAhead : .none
        case .stepSucceeded:
            state.stepsInFlight.remove(event.address)
            begin(.stepSucceeded, event, &line)
            line.field("attempt", int: event.attempt)
            duration(event, &line)
            value(event.value, .output, &line, &state)
            commit = .writeAndSync
        case .stepFailed(let error, let willRetry, let delay):
            state.stepsInFlight.remove(event.address)
            begin(.stepFailed, event, &line)
            line.field("attempt", int: event.attempt)
            duration(event, &line)
            recordError(error, &line, state)
            line.field("willRetry", bool: willRetry)
            if let delay { line.field("retryInMs", milliseconds: delay) }
            commit = willRetry ? .write : .writeAndSync
        case .stepSkipped:
            begin(.stepSkipped, event, &line)
            commit = .none
        case .stepReplayed:
            begin(.stepReplayed, event, &line)
            commit = .none
        case .compensationStarted(let error):
            // At the step whose failure started the undoing; on disk before the first
            // compensation launches, so that a rerun fails the step again and goes on undoing.
            begin(.compensating, event, &line)
            recordError(error, &line, state)
            commit = .writeAndSync
        case .polling(let progress):
            // Before the wait it announces: a rerun waits only what is left of it and counts the
            // polls already made.
            begin(.polling, event, &line)
            line.field("began", int: Self.milliseconds(progress.began))
            line.field("polls", int: progress.polls)
            if let next = progress.nextPoll {
                line.field("nextPollAt", int: Self.milliseconds(next.until))
                line.field("waitSeconds", json: String(next.seconds).utf8)
            }
            commit = .writeAndSync
        case .eventHandled(let handled):
            // In words only (each label redacted): a reaction is never replayed, only read.
            begin(.eventHandled, event, &line)
            line.field("handled", json: (try? JSONEncoder().encode(handled)) ?? Data("null".utf8))
            commit = .write
        }
        state.append(&line)
        return commit
    }

    private func begin(
        _ kind: JournalFormat.Event, _ event: ScenarioEvent, _ line: inout JournalLine, address: Bool = true
    ) {
        line = JournalLine(kind)
        if address { line.field("address", address: event.address) }
    }

    private func duration(_ event: ScenarioEvent, _ line: inout JournalLine) {
        if let duration = event.duration { line.field("durationMs", milliseconds: duration) }
    }

    /// Writes a value as its JSON (``ValueJSON``). One that is ``JournalConfidential`` is sealed
    /// whole, one that holds such values has each of them sealed alone (``ConfidentialFields``);
    /// without a sealer they are withheld.
    private func value(
        _ value: (any Sendable)?, _ fields: JournalFormat.ValueFields, _ line: inout JournalLine,
        _ state: inout State
    ) {
        guard let value else { return }
        // Plain values hold no secret: written directly.
        switch value {
        case let text as String: return line.field(fields.clear, string: text)
        case let number as Int: return line.field(fields.clear, int: number)
        case let flag as Bool: return line.field(fields.clear, bool: flag)
        default: break
        }
        var typeName: String { (value as? ParallelOutputs)?.type ?? "\(type(of: value))" }
        // A parallel step's outputs whose branches' outputs are not all `Encodable` are still
        // recorded at each branch, and the line says so rather than "… is not Encodable".
        if let outputs = value as? ParallelOutputs, let reason = outputs.notRecordedReason {
            return line.field(fields.notRecorded, string: reason)
        }
        let confidential = value is any JournalConfidential
        guard let encodable = value as? any Encodable else {
            if value is Void { return line.field(fields.clear, json: "null".utf8) }
            let secret = confidential ? " (and is confidential)" : ""
            return line.field(fields.notRecorded, string: "\(typeName) is not Encodable\(secret)")
        }
        if confidential, sealer == nil {
            return line.field(fields.notRecorded, string: ConfidentialFields.withheldReason(typeName))
        }
        let written: ValueJSON.Written
        do {
            written = try ValueJSON.write(encodable, sealer: sealer, findingSecrets: !confidential)
        } catch let failure as ConfidentialFields.SealingFailure {
            // The value is not written (the line says so, without it), and the journal keeps the
            // failure as its error, which stops the run before it acts on an event the journal
            // cannot stand for.
            line.field(fields.notRecorded, string: "\(failure.typeName) could not be sealed: \(failure.reason)")
            if state.error == nil { state.error = .sealingFailed(url, type: failure.typeName, reason: failure.reason) }
            return
        } catch {
            var reason = "\(error)"
            if case EncodingError.invalidValue(_, let context) = error { reason = context.debugDescription }
            return line.field(fields.notRecorded, string: "\(typeName) could not be encoded: \(reason)")
        }
        if confidential, let sealer {
            do {
                return line.field(fields.sealed, string: Data(try sealer.seal(written.json)).base64EncodedString())
            } catch {
                let reason = "the sealer threw \(type(of: error))"
                line.field(fields.notRecorded, string: "\(typeName) could not be sealed: \(reason)")
                if state.error == nil { state.error = .sealingFailed(url, type: typeName, reason: reason) }
                return
            }
        }
        guard !written.confidential.isEmpty else { return line.field(fields.clear, json: written.json) }
        var object = Array(#"{"\#(ConfidentialFields.Key.value)":"#.utf8) + written.json
        object += #","\#(ConfidentialFields.Key.confidential)":["#.utf8
        for (index, pointer) in written.confidential.enumerated() {
            if index > 0 { object.append(UInt8(ascii: ",")) }
            JournalLine.appendString(pointer, to: &object)
        }
        line.field(fields.withConfidentialFields, json: object + "]}".utf8)
    }

    private func recordError(_ error: any Error, _ line: inout JournalLine, _ state: State) {
        var recorded = RecordedError(error)
        // Cancelled while it waited (at a screen, in a wait): no answer was lost (RunHistory).
        if state.interruptedWhileWaiting, recorded.isCancellation { recorded.isOutcomeUncertain = false }
        // `RecordedError`'s own `Codable` form; it has nothing JSON cannot hold.
        let json = try? ValueJSON.write(recorded, sealer: nil, findingSecrets: false).json
        line.field("error", json: json ?? Array("null".utf8))
    }

    /// Writes the buffer; syncs too when asked and the journal's level syncs, or always when
    /// `evenIfBuffered` (a write-ahead line). Errors are kept for `flush()`/`close()` and
    /// ``haltingError``, because an observer cannot throw.
    ///
    /// After the first error nothing more is written: a line after one that was dropped would
    /// leave a hole a rerun reads as history, so the journal ends at its last good line and the
    /// run stops (``RunHalted``). Only a durable sync is marked (``SyncMark``): after an ordered
    /// one a power loss may leave fewer lines than were synced, which is the prefix that level
    /// promises, not damage.
    private func commit(_ state: inout State, sync: Bool, evenIfBuffered: Bool = false) {
        guard let descriptor = state.descriptor else { return }
        // A part of the run writes while another is parked (parallel branches): the lock first.
        if state.released != nil { retakeLock(&state) }
        guard state.error == nil else { return state.lines.removeAll(keepingCapacity: true) }
        if !state.lines.isEmpty {
            if let code = state.lines.withUnsafeBytes({ io.write($0, descriptor) }) {
                state.error = .io(url, operation: "write to", reason: String(cString: strerror(code)))
            } else {
                state.unsynced = true
                state.written += state.lines
            }
            state.lines.removeAll(keepingCapacity: true)
        }
        let guarantee = evenIfBuffered ? .durable : sync ? durability.guarantee : nil
        guard let guarantee, state.unsynced, state.error == nil else { return }
        state.unsynced = false
        if let custom = durability.custom {
            do {
                try custom.body(descriptor)
                state.markSynced()
            } catch {
                state.error = .io(url, operation: "sync", reason: "\(error)")
            }
        } else if let code = io.sync(descriptor, guarantee) {
            state.error = .io(url, operation: "sync", reason: String(cString: strerror(code)))
        } else if guarantee == .durable {
            state.markSynced()
        }
    }

    // MARK: - Parking without the lock

    /// The run waits outside itself: what was gathered is written, the run is marked parked by
    /// this process (`ParkMark`) and the file lock is let go of, so that an iOS app suspended
    /// now holds no lock (the system kills an app suspended with a file lock in a shared
    /// container, `0xdead10cc`). Without a mark the lock is kept: a second writer must stay out.
    public func runParked() {
        state.withLock { state in
            state.parked += 1
            guard state.released == nil, let descriptor = state.descriptor, state.error == nil else { return }
            commit(&state, sync: false)
            guard state.error == nil, state.mark != nil, let stamp = FileStamp(of: url) else { return }
            if state.parkMark == nil {
                state.parkMark = ParkMark.Writer(journal: url, mark: ParkMark(pid: getpid(), token: token))
            }
            guard state.parkMark?.park() == true else { return }
            state.released = stamp
            _ = flock(descriptor, LOCK_UN)
        }
    }

    /// The run goes on: the lock is taken again before anything is written. When the journal is
    /// no longer as this process left it, or another process holds the lock or the mark, the
    /// journal stops with ``JournalError/runTakenOver(_:)`` and the run halts before its next
    /// launch (``haltingError``), writing nothing more.
    public func runGoesOn() {
        state.withLock { state in
            state.parked = max(0, state.parked - 1)
            if state.parked == 0, state.released != nil { retakeLock(&state) }
        }
    }

    /// Takes the lock let go of by ``runParked()`` and checks that the run is still this
    /// journal's; otherwise keeps ``JournalError/runTakenOver(_:)``.
    private func retakeLock(_ state: inout State) {
        guard let released = state.released, let descriptor = state.descriptor else { return }
        state.released = nil
        let stillOurs =
            JournalFile.relock(descriptor) && ParkMark.read(for: url) == ParkMark(pid: getpid(), token: token)
            && FileStamp(of: url) == released
        guard stillOurs else {
            if state.error == nil { state.error = .runTakenOver(url) }
            return
        }
        state.parkMark?.goOn()
    }

    /// A wall-clock time as the journal writes it: milliseconds since 1970.
    static func milliseconds(_ date: Date = Date()) -> Int {
        Int((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}

extension ScenarioJournal {
    /// Removes the journal at `url`, its sync mark (`<journal>.synced`) and a park mark
    /// (`<journal>.parked`): a host that reuses
    /// a path for another run must not leave the old run's mark beside the new journal, which
    /// would read as lines lost.
    ///
    /// - Parameter url: The journal file.
    package static func removeWithMark(at url: URL) {
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: SyncMark.url(for: url))
        ParkMark.remove(for: url)
    }
}
