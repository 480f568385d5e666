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
    /// Where each session starts in ``trace``'s events, in order.
    public let sessionStarts: [Int]

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

    /// Reads a ``FileTracer`` file.
    ///
    /// A damaged last line (the process was killed while writing it) is skipped and the trace
    /// counts as cut off; a damaged line before it is an error. A session that ends with
    /// operations still running, calls unanswered or services alive gets, at the point where it
    /// stopped, a `cut off` note over the innermost running operation, then a `cut off` reply to
    /// each open call, a `cut off` finish for each running operation (innermost first) and a
    /// release of each live service, so the next session starts from a clean slate.
    /// - Parameter jsonLines: The file's bytes.
    /// - Throws: ``TraceError/malformedJSON(_:)`` naming the damaged line,
    ///   ``TraceError/unsupportedVersion(found:supported:)`` for a session of another format.
    public static func recorded(jsonLines: Data) throws(TraceError) -> RecordedTrace {
        let lines = jsonLines.split(separator: 0x0A, omittingEmptySubsequences: true)
        var closer = SessionCloser()
        var events: [TraceEvent] = []
        var sessions = 0
        var sessionStarts: [Int] = []
        var cutOff = false
        let decoder = JSONDecoder()
        for (index, line) in lines.enumerated() {
            let isLast = index == lines.count - 1
            if let header = try? decoder.decode(TraceLines.Header.self, from: Data(line)), header.session {
                guard header.version == formatVersion else {
                    throw .unsupportedVersion(found: header.version, supported: formatVersion)
                }
                if closer.close(into: &events) { cutOff = true }
                sessions += 1
                sessionStarts.append(events.count)
                continue
            }
            let event: TraceEvent
            do {
                event = try decoder.decode(TraceEvent.self, from: Data(line))
            } catch TraceError.unknownEventKind(let kind, _) {
                throw .unknownEventKind(kind, event: events.count)
            } catch {
                if isLast {
                    cutOff = true
                    break
                }
                throw .malformedJSON("line \(index + 1) is damaged")
            }
            closer.track(event)
            events.append(event)
        }
        if closer.close(into: &events) { cutOff = true }
        return RecordedTrace(
            trace: Trace(events: events), sessions: sessions, isCutOff: cutOff, sessionStarts: sessionStarts)
    }
}

/// What a session left open: running operations, unanswered calls, live services, open frames.
private struct SessionCloser {
    /// The frames still open, each with how many operations were running when it opened: a
    /// frame belongs inside the innermost of them, and closes before its finish.
    private var openFrames: [Int] = []
    private var running: [(operation: Participant.ID, launcher: Participant.ID)] = []
    private var calls: [(from: Participant.ID, to: Participant.ID)] = []
    private var alive: [Participant.ID] = []
    private var released: Set<Participant.ID> = []

    mutating func track(_ event: TraceEvent) {
        switch event.kind {
        case .launch(let operation, let launcher, _):
            running.append((operation, launcher))
        case .finish(let operation, _, _):
            if let index = running.lastIndex(where: { $0.operation == operation }) { running.remove(at: index) }
        case .message(let from, let to, _, let style):
            switch style {
            // A message to oneself (a scenario handing a value on: `a → b`) awaits no reply.
            case .call where from == to: break
            case .call: calls.append((from, to))
            case .reply:
                if let index = calls.lastIndex(where: { $0.from == to && $0.to == from }) { calls.remove(at: index) }
            case .async: break
            }
        case .create(let service, _, _):
            alive.append(service)
            released.remove(service)
        case .release(let service):
            alive.removeAll { $0 == service }
            released.insert(service)
        case .frameOpen:
            openFrames.append(running.count)
        case .frameClose:
            _ = openFrames.popLast()
        case .declare, .note, .frameBranch, .divider:
            break
        }
    }

    /// Appends the closing events; returns whether anything was left running or unanswered.
    mutating func close(into events: inout [TraceEvent]) -> Bool {
        defer { self = SessionCloser() }
        // A call to a context service needs no reply once the service is released (`dismiss()`
        // to a screen has none); a call still waiting on a live service, or an operation that
        // never finished, says the session stopped half-way.
        let waiting = calls.filter { !released.contains($0.to) }
        let wasCut = !running.isEmpty || !waiting.isEmpty
        // A frame left open by a session that otherwise ended cleanly closes quietly: only the
        // drawing needs it closed.
        defer { events.append(contentsOf: repeatElement(.closeFrame, count: openFrames.count)) }
        guard wasCut else { return false }
        if let innermost = running.last ?? waiting.last.map({ ($0.to, $0.from) }) {
            events.append(.note(over: innermost.operation, Trace.cutOffLabel))
        }
        for call in waiting.reversed() {
            events.append(.reply(from: call.to, to: call.from, Trace.cutOffLabel))
        }
        for (depth, launch) in running.enumerated().reversed() {
            // The frames opened inside this operation close before it finishes, as they would
            // have had the session gone on.
            while let opened = openFrames.last, opened > depth {
                openFrames.removeLast()
                events.append(.closeFrame)
            }
            events.append(.finish(launch.operation, to: launch.launcher, Trace.cutOffLabel))
        }
        for service in alive.reversed() {
            events.append(.release(service))
        }
        return wasCut
    }
}
