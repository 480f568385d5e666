/// One step of a traced run drawn on its own: what a diagram too wide for the page is split into,
/// and what `opctl diagram --run ID --step NAME` draws.
public struct TraceSection: Hashable, Sendable {
    /// The operation the section is about, as launched by the outermost operation.
    public let operation: Participant
    /// The frames the step ran inside (`loop [retry 2 of 3: unavailable]`), outermost first.
    public let frames: [String]
    /// The step's events from its launch through its finish, its launcher drawn as the left edge;
    /// only the participants it involves are declared.
    public let trace: Trace
    /// The notes the outermost operation wrote on its lifeline since the step before finished:
    /// what it hands this step, the step's purity and key, steps it skipped. The launcher is the
    /// section's left edge, which has no lifeline to hold them, so they travel beside the trace.
    public let notesBefore: [String]
    /// The notes it wrote after this step finished, when no step follows: why the run stopped.
    public let notesAfter: [String]
}

extension Trace {
    /// Every launch of the step named `name`, at any depth of nested scenarios, in order: a
    /// step that a nested scenario launches is found inside the section of that scenario, so a
    /// reader can ask for `CodeOp` without knowing which scenario holds it.
    ///
    /// - Parameter name: The step's (operation's) name.
    /// - Returns: The sections; empty when no step has that name.
    public func sections(named name: String) -> [TraceSection] {
        sections().flatMap { $0.operation.name == name ? [$0] : $0.trace.sections(named: name) }
    }

    /// The names of the steps at every depth of nested scenarios, each once, in the order they
    /// were first launched: what ``sections(named:)`` can find.
    public var stepNames: [String] {
        sections().reduce(into: [String]()) { names, section in
            for name in [section.operation.name] + section.trace.stepNames where !names.contains(name) {
                names.append(name)
            }
        }
    }

    /// The steps of the outermost operation (the one the caller launched), each as a trace of
    /// its own: one section per launch the outermost operation made, in order.
    ///
    /// A section holds everything from the step's launch through its finish: the operation's
    /// insides as deep as this trace keeps them. Its launcher becomes the caller edge, so each
    /// section is a valid trace with only the lifelines active in that step.
    ///
    /// - Returns: The sections; empty when the trace launches nothing under its outermost
    ///   operation.
    public func sections() -> [TraceSection] {
        var declared: [Participant.ID: Participant] = [:]
        for participant in participants where declared[participant.id] == nil { declared[participant.id] = participant }
        var root: Participant.ID?
        for event in events {
            if case .launch(let operation, let launcher, _) = event.kind, declared[launcher]?.kind == .caller {
                root = operation
                break
            }
        }
        guard let root, let rootParticipant = declared[root] else { return [] }

        var sections: [TraceSection] = []
        var openFrames: [String] = []
        var pendingNotes: [String] = []
        var index = events.startIndex
        while index < events.endIndex {
            switch events[index].kind {
            case .frameOpen(let kind, let label, _):
                openFrames.append(label.isEmpty ? kind.rawValue : "\(kind.rawValue) [\(label)]")
            case .frameClose:
                _ = openFrames.popLast()
            case .note(root, let text):
                pendingNotes.append(text)
            case .launch(let operation, let launcher, _) where launcher == root:
                let end =
                    events[index...].firstIndex {
                        if case .finish(operation, root, _) = $0.kind { true } else { false }
                    } ?? events.index(before: events.endIndex)
                let span = events[index...end]
                var mentioned: [Participant.ID] = []
                var seen = Set<Participant.ID>()
                for event in span {
                    for id in event.participantIDs where seen.insert(id).inserted { mentioned.append(id) }
                }
                let declarations = mentioned.compactMap { id -> TraceEvent? in
                    guard let participant = declared[id] else { return nil }
                    if id == root {
                        return .declare(Participant(id: id, name: rootParticipant.name, kind: .caller))
                    }
                    return .declare(participant)
                }
                if let operationParticipant = declared[operation] {
                    sections.append(
                        TraceSection(
                            operation: operationParticipant, frames: openFrames,
                            trace: Trace(events: declarations + span.filter { !$0.isDeclaration }),
                            notesBefore: pendingNotes, notesAfter: []))
                    pendingNotes = []
                }
                index = end
            default:
                break
            }
            index = events.index(after: index)
        }
        if let last = sections.popLast() {
            sections.append(
                TraceSection(
                    operation: last.operation, frames: last.frames, trace: last.trace, notesBefore: last.notesBefore,
                    notesAfter: pendingNotes))
        }
        return sections
    }
}

extension TraceEvent {
    /// The participants the event involves, in the order a diagram meets them.
    var participantIDs: [Participant.ID] {
        switch kind {
        case .declare, .frameBranch, .frameClose: return []
        case .create(let service, let creator, _): return [creator, service]
        case .release(let service): return [service]
        case .message(let from, let to, _, _): return [from, to]
        case .note(let over, _): return [over]
        case .launch(let operation, let launcher, _): return [launcher, operation]
        case .finish(let operation, let launcher, _): return [operation, launcher]
        case .frameOpen(_, _, let opener): return [opener]
        }
    }

    var isDeclaration: Bool {
        if case .declare = kind { return true }
        return false
    }
}
