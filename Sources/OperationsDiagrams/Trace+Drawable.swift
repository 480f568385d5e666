public import Operations

extension Trace {
    /// Checks that the trace describes something that can happen and can be drawn.
    ///
    /// A valid trace declares every participant before using it, creates a context service before
    /// it takes part in a message and never uses it after its release, answers every reply to an
    /// open call, finishes each operation once after launching it, and leaves no operation
    /// running at the end. Renderers run the same check.
    /// - Throws: A `TraceError` naming the first offending event.
    public func validate() throws(TraceError) {
        _ = try DiagramModel(trace: self, order: .firstUse)
    }

    /// The trace made drawable: itself when it validates (``validate()``), otherwise what can
    /// be drawn of it, with a note wherever something could not be drawn as recorded.
    ///
    /// For a recorded run, which must always draw (a trace file damaged at rest, lines lost, a
    /// build that recorded what this one cannot balance): every problem validation finds is
    /// mended in the least intrusive way — a participant never declared is declared, a reply
    /// to no call becomes a one-way message, a finish to the wrong launcher goes to its own,
    /// an operation launched again before it finished is finished first, a service created
    /// again is released first, an event that cannot be mended is left out — and the place is
    /// marked with an `unbalanced: …` note (``unbalancedPrefix``) over the operation running
    /// there. Operations still running at the end finish `cut off`, frames still open close.
    /// After many problems the rest of the trace is given up: it ends there, closed as a cut
    /// session, under a `trace cut off here` note saying why.
    ///
    /// Renderers still refuse an invalid trace (``validate()``); this is for a caller that
    /// must draw anyway, as `opctl diagram --run` does.
    ///
    /// - Returns: A trace that validates.
    public func drawable() -> Trace {
        var events = self.events
        for _ in 0..<Self.mendLimit {
            do {
                _ = try DiagramModel(trace: Trace(events: events), order: .firstUse)
                return Trace(events: events)
            } catch {
                guard Self.mend(&events, error) else { break }
            }
        }
        return Self.givingUp(events)
    }

    /// How many problems are mended one by one before the rest of the trace is given up.
    private static let mendLimit = 48

    /// Ends the trace before its first problem, closed as a cut session, or, if even that does
    /// not draw, replaces it by a note saying why.
    private static func givingUp(_ events: [TraceEvent]) -> Trace {
        var reason = "the trace cannot be drawn"
        var cut = events
        do {
            _ = try DiagramModel(trace: Trace(events: events), order: .firstUse)
            return Trace(events: events)
        } catch {
            reason = Self.sentence(error, in: events)
            if let index = Self.index(of: error) { cut = Array(events[..<index]) }
        }
        if let operation = Self.operation(runningBefore: cut.count, in: cut) {
            cut.append(.note(over: operation, "trace cut off here: \(reason)"))
        }
        let closed = Trace(events: cut).closingOpenWork()
        if (try? DiagramModel(trace: closed, order: .firstUse)) != nil { return closed }
        let note = Participant.operation("trace")
        return Trace(events: [.declare(note), .note(over: note.id, "trace cut off here: \(reason)")])
    }

    /// Mends the problem `error` names in `events`; `false` when it cannot.
    private static func mend(_ events: inout [TraceEvent], _ error: TraceError) -> Bool {
        let sentence = Self.sentence(error, in: events)
        func note(at index: Int) -> TraceEvent? {
            operation(runningBefore: index, in: events).map { .note(over: $0, unbalancedPrefix + sentence) }
        }
        /// Puts `replacement` (nothing: leaves the event out) where event `index` was, after a
        /// note saying why.
        func replace(_ index: Int, with replacement: [TraceEvent]) {
            events.replaceSubrange(index...index, with: (note(at: index).map { [$0] } ?? []) + replacement)
        }
        switch error {
        case .undeclaredParticipant(let id, let index):
            // The kind its role in the event suggests: the launcher of the first launch is the caller.
            let launcherOfAll = !events[..<index].contains { if case .launch = $0.kind { true } else { false } }
            let kind: Participant.Kind =
                switch events[index].kind {
                case .create(id, _, _): .contextService
                case .message: .keyService
                case .launch(_, id, _) where launcherOfAll: .caller
                default: .operation
                }
            replace(index, with: [.declare(Participant(id: id, name: id.rawValue, kind: kind)), events[index]])
        case .conflictingDeclaration(_, let index), .frameNotOpen(let index), .branchOutsideAlt(_, let index):
            events.remove(at: index)
        case .wrongKind(_, _, _, let index), .usedBeforeCreation(_, let index), .usedAfterRelease(_, let index),
            .releasedWhileNotAlive(_, let index), .finishedBeforeLaunch(_, let index), .callerMisused(_, let index):
            replace(index, with: [])
        case .unmatchedReply(let from, let to, let index):
            guard case .message(_, _, let label, _) = events[index].kind else { return false }
            replace(index, with: [.async(from: from, to: to, label)])
        case .finishedToWrongParticipant(let id, let launcher, _, let index):
            guard case .finish(_, _, let label) = events[index].kind else { return false }
            replace(index, with: [.finish(id, to: launcher, label)])
        case .launchedWhileRunning(let id, let index):
            // Finished to who launched the launch still running.
            var launchers: [Participant.ID] = []
            for event in events[..<index] {
                switch event.kind {
                case .launch(id, let launcher, _): launchers.append(launcher)
                case .finish(id, _, _): _ = launchers.popLast()
                default: break
                }
            }
            guard let launcher = launchers.last else { return false }
            replace(index, with: [.finish(id, to: launcher, cutOffLabel), events[index]])
        case .createdTwice(let id, let index):
            replace(index, with: [.release(id), events[index]])
        case .neverFinished, .frameNeverClosed:
            // The end of the trace leaves work open: closed as a cut session is.
            let closed = Trace(events: events).closingOpenWork().events
            guard closed.count > events.count else { return false }
            events = closed
        case .malformedJSON, .unsupportedVersion, .unknownEventKind, .diagramTooNarrow:
            return false
        }
        return true
    }

    /// The event a validation error points at.
    private static func index(of error: TraceError) -> Int? {
        switch error {
        case .undeclaredParticipant(_, let index), .conflictingDeclaration(_, let index),
            .wrongKind(_, _, _, let index),
            .usedBeforeCreation(_, let index), .usedAfterRelease(_, let index), .createdTwice(_, let index),
            .releasedWhileNotAlive(_, let index), .unmatchedReply(_, _, let index), .finishedBeforeLaunch(_, let index),
            .finishedToWrongParticipant(_, _, _, let index), .launchedWhileRunning(_, let index),
            .callerMisused(_, let index), .frameNotOpen(let index), .branchOutsideAlt(_, let index),
            .unknownEventKind(_, let index):
            return index
        case .neverFinished, .frameNeverClosed, .malformedJSON, .unsupportedVersion, .diagramTooNarrow:
            return nil
        }
    }

    /// What went wrong, in words a reader of the diagram understands: without the event's
    /// index, which means nothing in a drawing.
    private static func sentence(_ error: TraceError, in events: [TraceEvent]) -> String {
        switch error {
        case .undeclaredParticipant(let id, _): return "\(id) was never declared"
        case .conflictingDeclaration(let id, _): return "\(id) declared again as something else"
        case .wrongKind(let id, let kind, let expected, _):
            return "\(id), a \(kind.rawValue), used as a \(expected.rawValue)"
        case .usedBeforeCreation(let id, _): return "\(id) used before it was created"
        case .usedAfterRelease(let id, _): return "\(id) used after it was released"
        case .createdTwice(let id, _): return "\(id) created again before it was released"
        case .releasedWhileNotAlive(let id, _): return "\(id) released while not alive"
        case .unmatchedReply(let from, let to, _): return "a reply from \(from) to \(to) answers no call"
        case .finishedBeforeLaunch(let id, _): return "\(id) finished without a launch"
        case .finishedToWrongParticipant(let id, let launcher, let target, _):
            return "\(id) finished to \(target), launched by \(launcher)"
        case .launchedWhileRunning(let id, _): return "\(id) launched again before it finished"
        case .neverFinished(let id): return "\(id) never finished"
        case .callerMisused(let id, _): return "\(id) used as a lifeline"
        case .frameNotOpen: return "a frame closed that was not open"
        case .branchOutsideAlt(let kind, _): return "a branch in a \(kind.rawValue) frame"
        case .frameNeverClosed(let kind, let label): return "the \(kind.rawValue) frame '\(label)' never closed"
        case .malformedJSON, .unsupportedVersion, .unknownEventKind, .diagramTooNarrow:
            return error.description
        }
    }

    /// The innermost operation running just before event `index`, or else the last one
    /// launched before it, or else the first one declared before it: what a note about that
    /// place goes over.
    private static func operation(runningBefore index: Int, in events: [TraceEvent]) -> Participant.ID? {
        var running: [Participant.ID] = []
        var last: Participant.ID?
        var firstDeclared: Participant.ID?
        var kinds: [Participant.ID: Participant.Kind] = [:]
        for event in events[..<min(index, events.count)] {
            switch event.kind {
            case .declare(let participant):
                kinds[participant.id] = participant.kind
                if participant.kind == .operation, firstDeclared == nil { firstDeclared = participant.id }
            case .launch(let operation, _, _) where kinds[operation] == .operation:
                running.append(operation)
                last = operation
            case .finish(let operation, _, _):
                if let position = running.lastIndex(of: operation) { running.remove(at: position) }
            default: break
            }
        }
        return running.last ?? last ?? firstDeclared
    }
}
