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

    /// `trace` with the retries of each rerun's session numbered over the whole run, as `show`
    /// and the progress lines number attempts (``RunHistory/Attempt/Label``): a session's
    /// `retry 2 of 3: …` frame follows the step's launches in earlier sessions, so after one it
    /// reads `retry 3 of 4: …`, and a step drawn as a black box "took 3 attempts". The step is
    /// the one the frame's opener launches next (the engine's retry), else the innermost
    /// operation running (an operation's own retry). Sessions are found by their dividers.
    static func numberingAttempts(_ trace: Trace, history: RunHistory) -> Trace {
        var names: [Participant.ID: String] = [:]
        var session = 0
        var running: [Participant.ID] = []
        var events = trace.events
        for index in events.indices {
            switch events[index].kind {
            case .declare(let participant): names[participant.id] = participant.name
            case .divider: session += 1
            case .launch(let operation, _, _): running.append(operation)
            case .finish(let operation, _, _): running.lastIndex(of: operation).map { _ = running.remove(at: $0) }
            case .frameOpen(.loop, let label, let opener) where session > 1:
                var step = running.last
                let next = events[(index + 1)...].first { event in
                    switch event.kind {
                    case .launch, .frameClose: true
                    default: false
                    }
                }
                if case .launch(let operation, opener, _) = next?.kind { step = operation }
                guard let name = step.flatMap({ names[$0] }),
                    let earlier = history.steps.first(where: { !$0.address.isCompensation && $0.name == name })?
                        .attempts.count(where: { $0.session < session }),
                    let renumbered = renumbered(label, after: earlier)
                else { continue }
                events[index].kind = .frameOpen(.loop, label: renumbered, by: opener)
            default: continue
            }
        }
        return Trace(events: events)
    }

    /// `retry A of M: …` after `earlier` launches: `retry A+earlier of M+earlier: …`; `nil` for
    /// any other label, or none earlier.
    private static func renumbered(_ label: String, after earlier: Int) -> String? {
        guard earlier > 0, let match = label.wholeMatch(of: /retry (\d+) of (\d+)(:.*)/),
            let attempt = Int(match.1), let most = Int(match.2)
        else { return nil }
        return "retry \(attempt + earlier) of \(most + earlier)\(match.3)"
    }
}
