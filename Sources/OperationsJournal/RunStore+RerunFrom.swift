import Foundation
public import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension RunStore {
    /// Makes a new run that reruns `id` from `step`: the steps the old run finished before
    /// `step` are replayed, `step` and everything after it are launched anew, as new requests.
    /// The old run's journal is read, never written; the new run's header names it
    /// (``JournalRecord/rerunOf``), and its journal is complete on its own, an unfinished run
    /// to resume with ``resume(_:scenario:relaunchingInDoubt:durability:)`` (the copy rule:
    /// Sources/OperationsJournal/RerunCopy.swift).
    ///
    /// ```swift
    /// let step = try StepSelector.address(named: "CodeOp", in: authScenario.shape)
    /// let newRun = try store.rerun(oldRun, from: step, scenario: authScenario)
    /// let journal = try store.resume(newRun, scenario: authScenario)
    /// ```
    ///
    /// - Parameters:
    ///   - id: The run to rerun; it may have succeeded, failed or been interrupted.
    ///   - step: The first step to launch anew (``StepSelector``).
    ///   - scenario: The scenario that will run the new run (or its shape): it must match the
    ///     old run's shape as a plain rerun's would.
    /// - Returns: The new run's id.
    /// - Throws: ``RerunFromError/stepNotReached(_:run:reached:)``,
    ///   ``RerunFromError/undoneBefore(_:undone:run:)``, or
    ///   ``RerunFromError/journal(_:)`` with ``JournalError/unknownRun(_:directory:)``,
    ///   ``JournalError/runInProgress(_:)``, ``JournalError/missingShape(_:scenario:)``,
    ///   ``JournalError/shapeMismatch(_:_:)`` or a read or write error.
    public func rerun(_ id: RunID, from step: StepAddress, scenario: some ScenarioShapeProviding)
        throws(RerunFromError) -> RunID
    {
        let oldURL = url(for: id)
        guard JournalFile.exists(oldURL) else { throw .journal(.unknownRun(id, directory: directory)) }
        guard !JournalFile.isHeldByAnotherWriter(oldURL) else { throw .journal(.runInProgress(oldURL)) }
        let bytes: [UInt8]
        let record: JournalRecord
        do throws(JournalError) {
            let mark = try SyncMark.read(for: oldURL)
            bytes = try JournalFile.readAll(oldURL)
            record = try JournalReader.parse(
                bytes, url: oldURL, mark: mark, isBeingWritten: false, skippingDamage: true)
            // Only the shape: a step in doubt at or after `step` is launched as a new request.
            try record.checkResumable(by: scenario.shape, relaunchingInDoubt: true, sealer: sealer)
        } catch {
            throw .journal(error)
        }
        // Undone stays undone: no new run replays a step the old one undid.
        _ = try record.rerunPlan(from: step, shape: scenario.shape)
        let lines = JournalReader.split(bytes).complete
        guard let header = lines.first, let kept = RerunCopy.keptLines(lines, from: step) else {
            throw .stepNotReached(
                step.namePath, run: id, reached: StepSelector.names(of: record.steps.map(\.address)))
        }
        let origin = RerunOrigin(run: id, step: step)
        do throws(JournalError) {
            for _ in 0..<16 {
                let newID = RunID.make()
                guard
                    let newHeader = RerunCopy.header(
                        header, oldRun: record.runID, newRun: newID, createdAt: Date(), origin: origin)
                else { throw .damaged(oldURL, line: 1, reason: "its header does not name its run") }
                let (journal, mark) = RerunCopy.journal(header: newHeader.dropLast(), kept: kept)
                if try publish(journal, as: url(for: newID)) {
                    // Published synced, whole: its mark names its last line.
                    SyncMark.write(mark, for: url(for: newID))
                    return newID
                }
            }
        } catch {
            throw .journal(error)
        }
        throw .journal(.io(directory, operation: "create a run in", reason: "every new run id was already taken"))
    }

    /// Writes and syncs `bytes` under a hidden draft, then links it into place: like a new
    /// run's header, the new journal never exists half written under its name.
    ///
    /// - Returns: `false` when a run of that name already exists.
    private func publish(_ bytes: [UInt8], as url: URL) throws(JournalError) -> Bool {
        let draft = try JournalFile.createDraft(of: url)
        let failure =
            bytes.withUnsafeBytes { JournalIO.system.write($0, draft.descriptor) }
            ?? JournalIO.system.sync(draft.descriptor, .durable)
        if let failure {
            JournalFile.discard(draft)
            throw .io(url, operation: "write", reason: String(cString: strerror(failure)))
        }
        do throws(JournalError) {
            let published = try JournalFile.publish(draft, as: url)
            JournalFile.discard(draft)
            if published { JournalFile.syncDirectory(directory) }
            return published
        } catch {
            JournalFile.discard(draft)
            throw error
        }
    }
}
