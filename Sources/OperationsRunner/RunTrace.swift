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

    /// The run's recorded trace as every view draws it (`diagram --run`, the web view's run
    /// page): marked with what its `history` says (`marked(_:history:)`), its retries numbered
    /// over the whole run (`numberingAttempts(_:history:)`), and balanced where it is damaged:
    /// a recorded run is always drawn, what a damaged trace cannot balance is marked, not
    /// refused (`Trace.drawable()`). Without a history (a journal that does not read) the trace
    /// is drawn as it was recorded.
    static func drawable(_ recorded: RecordedTrace, history: RunHistory?) -> Trace {
        var trace = marked(recorded, history: history)
        if let history { trace = numberingAttempts(trace, history: history) }
        return trace.drawable()
    }

    /// What of a run's drawable trace a view draws: `depth` levels of launches with their
    /// insides; with a `step`, every launch of that step at any depth of nested scenarios, drawn
    /// `depth` levels deep counted from the step (`TraceSection.limited(toDepth:)`), each (a
    /// failed run's and its rerun's) after a divider naming its scenario and session
    /// (`TraceSection.joined(_:)`). `diagram --run --step` and the web view's run page alike.
    ///
    /// - Throws: ``UsageError`` (pointing to `command`'s help) naming the run's steps when it has
    ///   no step `step`.
    static func shown(_ trace: Trace, depth: Int, step: String?, command: String) throws -> Trace {
        guard let step else { return trace.limited(toDepth: depth) }
        let matching = trace.sections(named: step).map { $0.limited(toDepth: depth) }
        guard !matching.isEmpty else {
            throw UsageError(
                "the run has no step '\(ParsedArguments.clip(step))' "
                    + "(its steps: \(trace.stepNames.joined(separator: ", ")))",
                command: command)
        }
        return TraceSection.joined(matching)
    }

    /// The recorded trace, its sessions marked (`RecordedTrace.markingSessions()`), saying what
    /// the run's history says and the trace alone does not show.
    ///
    /// - In each session that replayed steps from the journal, a note over the session's
    ///   scenario naming them: `replayed from the journal, not sent again: PhoneOp`. The engine
    ///   launches nothing for a replayed step. Sessions are found by their dividers, the Nth
    ///   being session N.
    /// - A run still going: its last session, closed off where the file stops, is marked
    ///   `running: at STEP for N s` instead of `cut off`, and what it closed (finishes, replies)
    ///   reads `running`.
    /// - A run stopped by Ctrl-C unwinds cleanly, so its trace is balanced: a `cut off` note over
    ///   the outermost operation at its end says where it stopped, unless a cut-off session
    ///   already carries one.
    /// - When the journal says the run ended but the trace file stops before, a note at its end
    ///   says so: the drawing shows the run as far as the trace goes and what the journal knows.
    static func marked(_ recorded: RecordedTrace, history: RunHistory?) -> Trace {
        var events = recorded.markingSessions().events
        func isDivider(_ event: TraceEvent) -> Bool { if case .divider = event.kind { true } else { false } }
        func launched() -> [Participant.ID] {
            events.compactMap { if case .launch(let operation, _, _) = $0.kind { operation } else { nil } }
        }
        if let history {
            let dividers = events.indices.filter { isDivider(events[$0]) }
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
                events.insert(
                    .note(over: scenario, "replayed from the journal, not sent again: \(names)"), at: root + 1)
            }
        }
        if let history, history.status == .running {
            let at = history.current.map(HistoryText.at) ?? "starting"
            for index in events.indices[(events.lastIndex(where: isDivider) ?? 0)...] {
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
        }
        let status = history?.status
        if status == .interrupted,
            !events.contains(where: { if case .note(_, Trace.cutOffLabel) = $0.kind { true } else { false } }),
            let root = launched().first
        {
            events.append(.note(over: root, Trace.cutOffLabel))
        }
        if recorded.endsCutOff, let status, [.succeeded, .failed, .cancelled].contains(status),
            let root = launched().last
        {
            events.append(.note(over: root, "trace cut off here: the journal records the run as \(status)"))
        }
        return Trace(events: events)
    }
}
