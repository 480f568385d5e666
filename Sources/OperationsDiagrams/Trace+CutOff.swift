public import Operations

extension Trace {
    /// The label of the note and the arrows that close a session that stopped half-way.
    public static let cutOffLabel = "cut off"

    /// The start of the note that ends the session of a run still going (`running: at CodeOp
    /// for 3 s`): its trace stops where the run is, not where it was cut.
    public static let runningPrefix = "running: "

    /// The trace with what it leaves open closed, as the end of a cut-off session is
    /// (`recorded(jsonLines:)`): a `cut off` note, then replies, releases and `cut off`
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
package struct SessionCloser {
    package init() {}

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

    package mutating func track(_ event: TraceEvent, into events: inout [TraceEvent]) {
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
    package mutating func skipped(_ note: String, into events: inout [TraceEvent]) {
        if let operation = running.last?.operation ?? lastOperation {
            events.append(.note(over: operation, note))
        } else {
            pendingNotes.append(note)
        }
    }

    /// Appends the closing events; returns whether anything was left running or unanswered.
    /// A session another one follows also releases the services it left alive (a screen a
    /// cancelled operation never dismissed), so the next session can create them again.
    package mutating func close(into events: inout [TraceEvent], sessionFollows: Bool) -> Bool {
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
