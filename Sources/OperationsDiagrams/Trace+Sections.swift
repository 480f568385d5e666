public import Operations

/// One step of a traced run drawn on its own: what a diagram too wide for the page is split into,
/// and what `opctl diagram --run ID --step NAME` draws.
public struct TraceSection: Hashable, Sendable {
    /// The operation the section is about, as launched by the outermost operation.
    public internal(set) var operation: Participant
    /// The frames the step ran inside (`loop [retry 2 of 3: unavailable]`), outermost first.
    public internal(set) var frames: [String]
    /// The step's events from its launch through its finish, its launcher drawn as the left edge;
    /// only the participants it involves are declared.
    public internal(set) var trace: Trace
    /// The notes the outermost operation wrote on its lifeline since the step before finished:
    /// what it hands this step, the step's purity and key, steps it skipped. The launcher is the
    /// section's left edge, which has no lifeline to hold them, so they travel beside the trace.
    public internal(set) var notesBefore: [String]
    /// The notes it wrote after this step finished, when no step follows: why the run stopped.
    public internal(set) var notesAfter: [String]
    /// The step's place among the outermost operation's steps, from 1: steps are counted in the
    /// order the trace first meets them — launched, or skipped by a scenario's condition (the
    /// `skipped NAME: …` note of `Sources/Operations/Scenario/ScenarioBuilder.swift`) — once each, however often they
    /// were launched and in whichever session. That is how a scenario's shape counts its steps
    /// (`ScenarioShape.swift`), so a diagram's `step 3 of 3` and a rerun's refusal at `step 3`
    /// name the same step.
    public internal(set) var position: Int
    /// How many steps the trace shows the outermost operation having, counted as `position`.
    public internal(set) var stepCount: Int
    /// The label of the last divider before the step (`TraceEvent/Kind/divider(label:)`): the
    /// session of the run it was launched in; `nil` when the trace has no dividers.
    public internal(set) var session: String?

    /// The same section with another trace of its step (the same step drawn otherwise).
    func replacingTrace(_ trace: Trace) -> TraceSection {
        var section = self
        section.trace = trace
        return section
    }

    /// The step as seen from `depth` levels of launches, counted from the step's launcher (the
    /// caller edge, level 0; the step is level 1): `Trace/limited(toDepth:)` of its trace.
    ///
    /// Counting from the step rather than from the run is what lets a step of a nested scenario
    /// be drawn at the default depth: counted from the run, `CodeOp` inside
    /// `VerificationScenario` sits at level 3 and a depth of 2 would leave nothing of it.
    ///
    /// - Parameter depth: How many levels keep their insides.
    /// - Returns: The section with its trace limited; its notes and place unchanged.
    public func limited(toDepth depth: Int) -> TraceSection {
        replacingTrace(trace.limited(toDepth: depth))
    }

    /// The same step with its trace made drawable (`Trace.drawable()`).
    public func drawable() -> TraceSection {
        replacingTrace(trace.drawable())
    }

    /// Several launches of a step as one trace, to draw as one document: each launch after a
    /// divider naming its session (`session`), its number and the frames it ran in, the
    /// scenario's notes about it (which the launcher edge cannot hold) as notes over the step.
    ///
    /// One document rather than one per launch is what a source format needs: two Mermaid
    /// `sequenceDiagram`s in one output are not one diagram any tool reads.
    ///
    /// A service a launch left alive at its end (a screen its cancelled operation never
    /// dismissed, its release recorded later or never) is released where the launch ends, so
    /// that the next launch, which creates it again, draws.
    ///
    /// - Parameter sections: The launches, in order.
    /// - Returns: The trace; empty for no sections.
    public static func joined(_ sections: [TraceSection]) -> Trace {
        var events: [TraceEvent] = []
        for (number, section) in sections.enumerated() {
            if number > 0 {
                events.append(contentsOf: sections[number - 1].trace.servicesLeftAlive.map(TraceEvent.release))
            }
            let declarations = section.trace.events.prefix { $0.isDeclaration }
            events.append(contentsOf: declarations)
            let frames = section.frames.isEmpty ? "" : " in " + section.frames.joined(separator: " / ")
            let launch =
                sections.count == 1 ? String(frames.dropFirst()) : "launch \(number + 1) of \(sections.count)\(frames)"
            let parts = [section.session, launch].compactMap { $0 }.filter { !$0.isEmpty }
            if !parts.isEmpty { events.append(.divider(parts.joined(separator: ", "))) }
            events.append(contentsOf: section.notesBefore.map { .note(over: section.operation.id, $0) })
            events.append(contentsOf: section.trace.events.dropFirst(declarations.count))
            events.append(contentsOf: section.notesAfter.map { .note(over: section.operation.id, $0) })
        }
        return Trace(events: events)
    }
}

extension Trace {
    /// Every launch of the step named `name`, at any depth of nested scenarios, in order: a
    /// step that a nested scenario launches is found inside the section of that scenario, so a
    /// reader can ask for `CodeOp` without knowing which scenario holds it.
    ///
    /// - Parameter name: The step's (operation's) name.
    /// - Returns: The sections; empty when no step has that name.
    public func sections(named name: String) -> [TraceSection] {
        sections().flatMap { section in
            guard section.operation.name != name else { return [section] }
            // A step found inside a nested scenario's section ran in that section's session.
            return section.trace.sections(named: name).map { found in
                var found = found
                found.session = found.session ?? section.session
                return found
            }
        }
    }

    /// The names of the steps at every depth of nested scenarios, each once, in the order they
    /// were first launched: what `sections(named:)` can find.
    public var stepNames: [String] {
        sections().reduce(into: [String]()) { names, section in
            for name in [section.operation.name] + section.trace.stepNames where !names.contains(name) {
                names.append(name)
            }
        }
    }

    /// The steps of the outermost operation (the one the caller launched), each as a trace of
    /// its own: one section per launch the outermost operation made, in order, and per launch a
    /// key service made between them (seeds/003's key service launching a lone operation).
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
        guard let root, declared[root] != nil else { return [] }

        var sections: [TraceSection] = []
        var openFrames: [String] = []
        var pendingNotes: [String] = []
        var session: String?
        /// The steps' names in the order the trace first meets them, for `TraceSection/position`.
        var steps: [String] = []
        func meet(_ step: String) { if !steps.contains(step) { steps.append(step) } }
        var index = events.startIndex
        while index < events.endIndex {
            switch events[index].kind {
            case .frameOpen(let kind, let label, _):
                openFrames.append(label.isEmpty ? kind.rawValue : "\(kind.rawValue) [\(label)]")
            case .frameClose:
                _ = openFrames.popLast()
            case .note(root, let text):
                pendingNotes.append(text)
                if let skipped = Self.skippedStep(text) { meet(skipped) }
            case .divider(let label):
                session = label
            // The outermost operation launching itself (a trace recorded before launches got
            // ids of their own) is no step: its section would be the whole trace again. A key
            // service launching between its steps (seeds/003's lone operation) launches one too.
            case .launch(let operation, let launcher, _)
            where operation != root && (launcher == root || declared[launcher]?.kind == .keyService):
                let end =
                    events[index...].firstIndex {
                        if case .finish(operation, launcher, _) = $0.kind { true } else { false }
                    } ?? events.index(before: events.endIndex)
                let span = events[index...end]
                var mentioned: [Participant.ID] = []
                var seen = Set<Participant.ID>()
                for event in span {
                    for id in event.participantIDs where seen.insert(id).inserted { mentioned.append(id) }
                }
                let declarations = mentioned.compactMap { id -> TraceEvent? in
                    guard let participant = declared[id] else { return nil }
                    if id == root || id == launcher {
                        return .declare(Participant(id: id, name: participant.name, kind: .caller))
                    }
                    return .declare(participant)
                }
                if let operationParticipant = declared[operation] {
                    meet(operationParticipant.name)
                    sections.append(
                        TraceSection(
                            operation: operationParticipant, frames: openFrames,
                            trace: Trace(events: declarations + Self.framesBalanced(span.filter { !$0.isDeclaration })),
                            notesBefore: pendingNotes, notesAfter: [], position: 0, stepCount: 0, session: session))
                    pendingNotes = []
                }
                index = end
            default:
                break
            }
            index = events.index(after: index)
        }
        for index in sections.indices {
            sections[index].position = (steps.firstIndex(of: sections[index].operation.name) ?? 0) + 1
            sections[index].stepCount = steps.count
        }
        if !sections.isEmpty { sections[sections.count - 1].notesAfter = pendingNotes }
        return sections
    }

    /// A step's events with its frames closed inside it: a frame it opened and the trace
    /// closes only after its finish (a session cut inside the frame, mended where it was
    /// cut) closes at its end, and a frame's branch or close whose opening lies before the
    /// step (it ran inside the frame) is left out — the section's `TraceSection/frames`
    /// name those.
    private static func framesBalanced(_ events: [TraceEvent]) -> [TraceEvent] {
        var open = 0
        var balanced: [TraceEvent] = []
        balanced.reserveCapacity(events.count)
        for event in events {
            switch event.kind {
            case .frameOpen: open += 1
            case .frameBranch where open == 0: continue
            case .frameClose:
                guard open > 0 else { continue }
                open -= 1
            default: break
            }
            balanced.append(event)
        }
        balanced.append(contentsOf: repeatElement(.closeFrame, count: open))
        return balanced
    }

    /// The step a scenario's `skipped NAME: … is false` note names (`Sources/Operations/Scenario/ScenarioBuilder.swift`).
    private static func skippedStep(_ note: String) -> String? {
        guard note.hasPrefix("skipped "), let colon = note.firstIndex(of: ":") else { return nil }
        let name = note[note.index(note.startIndex, offsetBy: "skipped ".count)..<colon]
        return name.isEmpty || name.contains(" ") ? nil : String(name)
    }

    /// The context services alive at the end of the trace, the latest created first.
    var servicesLeftAlive: [Participant.ID] {
        var alive: [Participant.ID] = []
        for event in events {
            switch event.kind {
            case .create(let service, _, _): alive.append(service)
            case .release(let service): alive.removeAll { $0 == service }
            default: break
            }
        }
        return alive.reversed()
    }
}

extension TraceEvent {
    /// The participants the event involves, in the order a diagram meets them.
    var participantIDs: [Participant.ID] {
        switch kind {
        case .declare, .frameBranch, .frameClose, .divider: return []
        case .create(let service, let creator, _): return [creator, service]
        case .release(let service): return [service]
        case .message(let from, let to, _, _): return [from, to]
        case .note(let over, _): return [over]
        case .launch(let operation, let launcher, _): return [launcher, operation]
        case .finish(let operation, let launcher, _): return [operation, launcher]
        case .frameOpen(_, _, let opener): return [opener]
        }
    }

    /// Whether the event declares a participant: what a section keeps of the events before it.
    package var isDeclaration: Bool {
        if case .declare = kind { return true }
        return false
    }
}
