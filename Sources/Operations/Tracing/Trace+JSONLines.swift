public import Foundation

/// The line format ``FileTracer`` writes.
enum TraceLines {
    static let sessionHeader = "{\"session\":true,\"version\":\(Trace.formatVersion)}\n"

    struct Header: Decodable {
        let session: Bool
        let version: Int
    }
}

/// A trace read back from a ``FileTracer`` file: every session of the run, one after another,
/// with each session that stopped half-way closed off so it can be drawn.
public struct RecordedTrace: Hashable, Sendable {
    /// The events of every session, each cut-off session closed with a `cut off` note and
    /// `cut off` finishes and replies, so the trace validates and renders.
    public let trace: Trace
    /// How many sessions (the run and its reruns) the file holds.
    public let sessions: Int
    /// Whether any session stopped before its operations finished (killed, interrupted, or a
    /// torn last line).
    public let isCutOff: Bool
    /// Whether the last session stopped before its operations finished: the file ends before
    /// the run's latest session did, whatever its journal says of how that session ended.
    public let endsCutOff: Bool
    /// Where each session starts in ``trace``'s events, in order.
    public let sessionStarts: [Int]
    /// The lines of the file that could not be read and were skipped (counted from 1), the
    /// torn last line of a killed process aside: each is named by a note in ``trace``.
    public let damagedLines: [Int]

    /// The trace with a divider (``TraceEvent/Kind/divider(label:)``) where each session
    /// starts, naming the scenario the session launched and which session it is:
    /// `AuthScenario: run` for a run of one session; `AuthScenario: run (session 1 of 2)`, then
    /// `AuthScenario: rerun 1 (session 2 of 2)` for a run and its rerun. Without them a
    /// rerun's session is found only through the notes of its steps, and the drawing of a
    /// step names no scenario.
    public func markingSessions() -> Trace {
        guard let first = sessionStarts.first else { return trace }
        var events: [TraceEvent] = []
        events.reserveCapacity(trace.events.count + sessionStarts.count)
        var callers = Set<Participant.ID>()
        var names: [Participant.ID: String] = [:]
        for participant in trace.participants {
            names[participant.id] = participant.name
            if participant.kind == .caller { callers.insert(participant.id) }
        }
        for (session, start) in sessionStarts.enumerated() {
            let end = session + 1 < sessionStarts.count ? sessionStarts[session + 1] : trace.events.count
            let part = trace.events[start..<end]
            let root = part.lazy.compactMap { event -> String? in
                guard case .launch(let operation, let launcher, _) = event.kind, callers.contains(launcher) else {
                    return nil
                }
                return names[operation] ?? operation.rawValue
            }.first
            let which = session == 0 ? "run" : "rerun \(session)"
            let count = sessionStarts.count > 1 ? " (session \(session + 1) of \(sessionStarts.count))" : ""
            // A session's declarations come first, so every participant is declared above the rule.
            let declarations = part.prefix { $0.isDeclaration }
            events.append(contentsOf: declarations)
            events.append(.divider((root.map { "\($0): " } ?? "") + which + count))
            events.append(contentsOf: part.dropFirst(declarations.count))
        }
        events.insert(contentsOf: trace.events[..<first], at: 0)
        return Trace(events: events)
    }
}

extension Trace {
    /// The label of the note and the arrows that close a session that stopped half-way.
    public static let cutOffLabel = "cut off"

    /// The start of the note that ends the session of a run still going (`running: at CodeOp
    /// for 3 s`): its trace stops where the run is, not where it was cut.
    public static let runningPrefix = "running: "

    /// Reads a ``FileTracer`` file.
    ///
    /// A damaged last line (the process was killed while writing it) is skipped and the trace
    /// counts as cut off. A damaged line before it (the file was damaged at rest) is skipped
    /// too, as is a line this build cannot read (an event kind it does not know), and named by a
    /// note where it stood (`trace line 12 is unreadable: skipped`) and in
    /// ``RecordedTrace/damagedLines``: what the file still holds is drawn, and the drawing says
    /// what is missing. A session that ends with operations still running, calls unanswered or
    /// services alive gets, at the point where it stopped, a `cut off` note over the innermost
    /// running operation, then for each running operation, innermost first, a `cut off` reply
    /// to each call it (or a service it created) still waits on, a release of each service it
    /// created, and its `cut off` finish, so the next session starts from a clean slate.
    /// - Parameter jsonLines: The file's bytes.
    /// - Throws: ``TraceError/unsupportedVersion(found:supported:)`` for a session of another
    ///   format.
    public static func recorded(jsonLines: Data) throws(TraceError) -> RecordedTrace {
        // Empty lines are kept, so that a line's index says which line of the file it is.
        let lines = jsonLines.split(separator: 0x0A, omittingEmptySubsequences: false)
        let lastLine = lines.lastIndex { !$0.isEmpty }
        var closer = SessionCloser()
        var events: [TraceEvent] = []
        var sessions = 0
        var sessionStarts: [Int] = []
        var cutOff = false
        var damaged: [Int] = []
        var tornTail = false
        let decoder = JSONDecoder()
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let isLast = index == lastLine
            if let header = try? decoder.decode(TraceLines.Header.self, from: Data(line)), header.session {
                guard header.version == formatVersion else {
                    throw .unsupportedVersion(found: header.version, supported: formatVersion)
                }
                if closer.close(into: &events, sessionFollows: true) { cutOff = true }
                sessions += 1
                sessionStarts.append(events.count)
                continue
            }
            let event: TraceEvent
            do {
                event = try decoder.decode(TraceEvent.self, from: Data(line))
            } catch {
                if isLast {
                    tornTail = true
                    break
                }
                // The lines number from 1, as an editor shows them.
                damaged.append(index + 1)
                closer.skipped("trace line \(index + 1) is unreadable: skipped", into: &events)
                continue
            }
            closer.track(event, into: &events)
        }
        let endsCutOff = closer.close(into: &events, sessionFollows: false) || tornTail
        return RecordedTrace(
            trace: Trace(events: events), sessions: sessions, isCutOff: cutOff || endsCutOff, endsCutOff: endsCutOff,
            sessionStarts: sessionStarts, damagedLines: damaged)
    }
}

extension Trace {
    /// The trace with what it leaves open closed, as the end of a cut-off session is
    /// (``recorded(jsonLines:)``): a `cut off` note, then replies, releases and `cut off`
    /// finishes innermost first, open frames closed and every live service released. For a
    /// drawing of a trace that had to be cut short where it stopped making sense.
    package func closingOpenWork() -> Trace {
        var closer = SessionCloser()
        var closed: [TraceEvent] = []
        closed.reserveCapacity(events.count + 8)
        for event in events { closer.track(event, into: &closed) }
        _ = closer.close(into: &closed, sessionFollows: true)
        return Trace(events: closed)
    }
}

/// What a session left open: running operations, unanswered calls, live services, open frames.
private struct SessionCloser {
    /// The frames still open, each with how many operations were running when it opened: a
    /// frame belongs inside the innermost of them, and closes before its finish.
    private var openFrames: [Int] = []
    private var running: [(operation: Participant.ID, launcher: Participant.ID)] = []
    /// Calls not answered yet, from an operation that is still running or a service that is
    /// still alive: a finished operation's unanswered calls (a request it stopped waiting for
    /// when it was cancelled) and the calls to or from a released service wait on nothing.
    private var calls: [(from: Participant.ID, to: Participant.ID)] = []
    /// The services alive, each with the operation whose insides it belongs to (`nil` for one
    /// a key service or the caller created).
    private var alive: [(service: Participant.ID, owner: Participant.ID?)] = []
    /// The kind of every participant declared so far.
    private var kinds: [Participant.ID: Participant.Kind] = [:]
    /// The last operation launched, for a note about a damaged line when none is running.
    private var lastOperation: Participant.ID?
    /// Notes about damaged lines met before any operation was launched: written after the
    /// first launch.
    private var pendingNotes: [String] = []

    mutating func track(_ event: TraceEvent, into events: inout [TraceEvent]) {
        events.append(event)
        switch event.kind {
        case .declare(let participant):
            kinds[participant.id] = participant.kind
        case .launch(let operation, let launcher, _):
            running.append((operation, launcher))
            lastOperation = operation
            events.append(contentsOf: pendingNotes.map { .note(over: operation, $0) })
            pendingNotes = []
        case .finish(let operation, _, _):
            if let index = running.lastIndex(where: { $0.operation == operation }) { running.remove(at: index) }
            if !running.contains(where: { $0.operation == operation }) { calls.removeAll { $0.from == operation } }
        case .message(let from, let to, _, let style):
            switch style {
            // A message to oneself (a scenario handing a value on: `a → b`) awaits no reply.
            case .call where from == to: break
            case .call: calls.append((from, to))
            case .reply:
                if let index = calls.lastIndex(where: { $0.from == to && $0.to == from }) { calls.remove(at: index) }
            case .async: break
            }
        case .create(let service, let creator, _):
            let owner = kinds[creator] == .operation ? creator : alive.last(where: { $0.service == creator })?.owner
            alive.append((service, owner))
        case .release(let service):
            alive.removeAll { $0.service == service }
            calls.removeAll { $0.to == service || $0.from == service }
        case .frameOpen:
            openFrames.append(running.count)
        case .frameClose:
            _ = openFrames.popLast()
        case .note, .frameBranch, .divider:
            break
        }
    }

    /// Notes that a line could not be read, where it stood: over the operation running then
    /// (or the last one launched; or the first one launched after it).
    mutating func skipped(_ note: String, into events: inout [TraceEvent]) {
        if let operation = running.last?.operation ?? lastOperation {
            events.append(.note(over: operation, note))
        } else {
            pendingNotes.append(note)
        }
    }

    /// Appends the closing events; returns whether anything was left running or unanswered.
    /// A session another one follows also releases the services it left alive (a screen a
    /// cancelled operation never dismissed), so the next session can create them again.
    mutating func close(into events: inout [TraceEvent], sessionFollows: Bool) -> Bool {
        defer { self = SessionCloser() }
        let wasCut = !running.isEmpty || !calls.isEmpty
        defer {
            // A frame left open by a session that otherwise ended cleanly closes quietly: only
            // the drawing needs it closed.
            events.append(contentsOf: repeatElement(.closeFrame, count: openFrames.count))
            if wasCut || sessionFollows {
                events.append(contentsOf: alive.reversed().map { .release($0.service) })
            }
        }
        guard wasCut else { return false }
        if let innermost = running.last?.operation ?? calls.last?.to {
            events.append(.note(over: innermost, Trace.cutOffLabel))
        }
        for (depth, launch) in running.enumerated().reversed() {
            // The frames opened inside this operation close before it finishes, as they would
            // have had the session gone on.
            while let opened = openFrames.last, opened > depth {
                openFrames.removeLast()
                events.append(.closeFrame)
            }
            // What the operation waits on is answered, and what it created released, before it
            // finishes: its insides end inside its bar.
            let owned = Set(alive.filter { $0.owner == launch.operation }.map(\.service))
            let waiting = calls.indices.filter { calls[$0].from == launch.operation || owned.contains(calls[$0].from) }
            for index in waiting.reversed() {
                events.append(.reply(from: calls[index].to, to: calls[index].from, Trace.cutOffLabel))
            }
            calls = calls.indices.filter { !waiting.contains($0) }.map { calls[$0] }
            for service in alive.reversed() where service.owner == launch.operation {
                events.append(.release(service.service))
                calls.removeAll { $0.to == service.service }
            }
            alive.removeAll { $0.owner == launch.operation }
            events.append(.finish(launch.operation, to: launch.launcher, Trace.cutOffLabel))
        }
        // Calls between services no running operation owns (a screen a key service made).
        for call in calls.reversed() {
            events.append(.reply(from: call.to, to: call.from, Trace.cutOffLabel))
        }
        return true
    }
}
