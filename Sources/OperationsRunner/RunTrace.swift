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

    /// `trace` with a `cut off` note over the outermost operation at its end, unless a cut-off
    /// session already carries one.
    static func markingInterrupted(_ trace: Trace) -> Trace {
        guard !trace.events.contains(where: { if case .note(_, Trace.cutOffLabel) = $0.kind { true } else { false } }),
            let root = launched(trace).first
        else { return trace }
        return Trace(events: trace.events + [.note(over: root, Trace.cutOffLabel)])
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

    /// The run's recorded trace as every view draws it (`diagram --run`, the web view's run
    /// page): each session after a divider, saying what the run's `history` says (the steps a
    /// session replayed, a live run as running where it is, a run stopped by Ctrl-C where it
    /// stopped, a trace that lost the run's end), and balanced where it is damaged
    /// (`Trace.drawable()`). Without a history (a journal that does not read) the trace is
    /// drawn as it was recorded.
    static func drawable(_ recorded: RecordedTrace, history: RunHistory?) -> Trace {
        var trace = recorded.markingSessions()
        if let history {
            trace = markingReplays(trace, history: history)
            trace = markingRunning(trace, history: history)
        }
        // A run stopped by Ctrl-C unwinds cleanly, so its trace is balanced; the drawing still
        // says where it stopped.
        if history?.status == .interrupted { trace = markingInterrupted(trace) }
        if recorded.endsCutOff { trace = markingLostTail(trace, status: history?.status) }
        // A recorded run is always drawn: what a damaged trace cannot balance is marked, not
        // refused.
        return trace.drawable()
    }

    /// `trace` with a note at its end saying that its file lost the end of the run, when the
    /// journal says the run ended (`status`) but the trace of its last session stops before:
    /// the drawing shows the run as far as the trace goes and says what the journal knows.
    static func markingLostTail(_ trace: Trace, status: RunStatus?) -> Trace {
        guard let status, [.succeeded, .failed, .cancelled].contains(status), let root = launched(trace).last
        else { return trace }
        return Trace(
            events: trace.events + [.note(over: root, "trace cut off here: the journal records the run as \(status)")])
    }

    /// The operations `trace` launches, in order.
    private static func launched(_ trace: Trace) -> [Participant.ID] {
        trace.events.compactMap { if case .launch(let operation, _, _) = $0.kind { operation } else { nil } }
    }

    /// `trace` of a run still going (`history` running): its last session, closed off where
    /// the file stops, is marked `running: at STEP for N s` instead of `cut off`, and what it
    /// closed (finishes, replies) reads `running`.
    static func markingRunning(_ trace: Trace, history: RunHistory) -> Trace {
        guard history.status == .running else { return trace }
        let start = trace.events.lastIndex { if case .divider = $0.kind { true } else { false } } ?? 0
        let at = history.current.map(HistoryText.at) ?? "starting"
        var events = trace.events
        for index in events.indices[start...] {
            switch events[index].kind {
            case .note(let over, Trace.cutOffLabel):
                events[index] = .note(over: over, Trace.runningPrefix + at)
            case .finish(let operation, let launcher, Trace.cutOffLabel):
                events[index] = .finish(operation, to: launcher, "running")
            case .message(let from, let to, Trace.cutOffLabel, let style):
                events[index] = TraceEvent(.message(from: from, to: to, label: "running", style: style))
            default:
                continue
            }
        }
        return Trace(events: events)
    }

    /// `trace` with, in each session that replayed steps from the journal, a note over the
    /// session's scenario naming them: `replayed from the journal, not sent again: PhoneOp`.
    /// The engine launches nothing for a replayed step, so the trace alone would not show it;
    /// the history read from the journal does. Sessions are found by their dividers
    /// (`RecordedTrace.markingSessions()`'s), the Nth being session N.
    static func markingReplays(_ trace: Trace, history: RunHistory) -> Trace {
        var events = trace.events
        let dividers = events.indices.filter { if case .divider = events[$0].kind { true } else { false } }
        // Last first, so the places of the earlier sessions stay where they were.
        for (offset, divider) in dividers.enumerated().reversed() {
            let replayed = history.replayed(inSession: offset + 1)
            guard !replayed.isEmpty else { continue }
            let end = offset + 1 < dividers.count ? dividers[offset + 1] : events.endIndex
            guard
                let root = events[divider..<end].firstIndex(where: {
                    if case .launch = $0.kind { true } else { false }
                }), case .launch(let scenario, _, _) = events[root].kind
            else { continue }
            let names = replayed.map(HistoryText.path).joined(separator: ", ")
            events.insert(.note(over: scenario, "replayed from the journal, not sent again: \(names)"), at: root + 1)
        }
        return Trace(events: events)
    }
}
