import Foundation
import Operations
import OperationsDiagrams
import OperationsJournal

/// Where a run's trace is kept, for `run`/`rerun` (which write it) and `diagram --run` (which
/// draws it): next to its journal, as `<run-id>.trace.jsonl`, appended to
/// as the run goes (see `FileTracer`). Labels are redacted, so it holds no secret.
enum RunTrace {
    /// The trace file of the run whose journal is `journal`.
    static func url(for journal: URL) -> URL {
        journal.deletingPathExtension().appendingPathExtension("trace.jsonl")
    }

    /// The run's trace, every session of it, each cut-off session closed with a `cut off` note
    /// and each marked where it starts by a divider naming its scenario
    /// (`RecordedTrace.markingSessions()`), so a rerun is seen where it begins.
    static func load(for journal: URL, runID: RunID, missing: () throws -> Void) throws -> Trace {
        try loadRecorded(for: journal, runID: runID, missing: missing).markingSessions()
    }

    /// The run's trace file as read, with what the reading found (cut-off sessions, lines
    /// that could not be read); `missing` is called when there is no trace, to throw "no such
    /// run" first.
    static func loadRecorded(for journal: URL, runID: RunID, missing: () throws -> Void) throws -> RecordedTrace {
        if let data = FileManager.default.contents(atPath: url(for: journal).path) {
            do {
                return try Trace.recorded(jsonLines: data)
            } catch {
                throw CLIError.message("the trace of run \(runID) cannot be read: \(error)")
            }
        }
        try missing()
        throw CLIError.message("run \(runID) has no recorded trace")
    }
}
