// MARK: - API

extension Trace {
    /// The trace as seen from `depth` levels of launches: operations launched deeper are drawn
    /// as black boxes — their launch and finish stay, the messages inside them go.
    ///
    /// The caller is level 0, what it launches level 1, and so on; a context service belongs to
    /// the operation that created it. `limited(toDepth: 2)` of a scenario's trace shows the
    /// scenario launching its operations without their insides: the scenario's own diagram.
    ///
    /// - Parameter depth: How many levels keep their insides; participants no kept event
    ///   mentions are dropped.
    /// - Returns: The reduced trace; the same trace when nothing is deeper.
    public func limited(toDepth depth: Int) -> Trace {
        var level: [Participant.ID: Int] = [:]
        var owner: [Participant.ID: Participant.ID] = [:]
        var kind: [Participant.ID: Participant.Kind] = [:]
        for participant in participants { kind[participant.id] = participant.kind }

        /// The operation (or caller) whose insides an event of `id` belongs to.
        func operation(of id: Participant.ID) -> Participant.ID { owner[id] ?? id }
        func levelOf(_ id: Participant.ID) -> Int { level[operation(of: id)] ?? 0 }
        func isKeyService(_ id: Participant.ID) -> Bool { kind[id] == .keyService }

        var kept: [TraceEvent] = []
        var mentioned: Set<Participant.ID> = []
        /// Whether each open frame is kept: a frame belongs to the insides of its opener.
        var frames: [Bool] = []
        for event in events {
            let keep: Bool
            switch event.kind {
            case .declare(let participant):
                kind[participant.id] = participant.kind
                continue
            case .launch(let op, let launcher, _):
                if level[op] == nil { level[op] = levelOf(launcher) + 1 }
                keep = levelOf(launcher) < depth
                if keep { mentioned.formUnion([op, operation(of: launcher)]) }
            case .finish(let op, let launcher, _):
                keep = levelOf(launcher) < depth
                if keep { mentioned.formUnion([op, operation(of: launcher)]) }
            case .create(let service, let creator, _):
                owner[service] = operation(of: creator)
                keep = levelOf(creator) < depth
                if keep { mentioned.formUnion([service, creator]) }
            case .release(let service):
                keep = levelOf(service) < depth
            case .message(let from, let to, _, _):
                let inside = [from, to].filter { !isKeyService($0) }.map(levelOf).max() ?? 0
                keep = inside < depth
                if keep { mentioned.formUnion([from, to]) }
            case .note(let over, _):
                keep = isKeyService(over) || levelOf(over) < depth
                if keep { mentioned.insert(over) }
            case .frameOpen(_, _, let opener):
                keep = levelOf(opener) < depth
                frames.append(keep)
                if keep { mentioned.insert(operation(of: opener)) }
            case .frameBranch:
                keep = frames.last ?? true
            case .frameClose:
                keep = frames.popLast() ?? true
            }
            if keep { kept.append(event) }
        }
        let declarations = events.filter { event in
            guard case .declare(let participant) = event.kind else { return false }
            return participant.kind == .caller || mentioned.contains(participant.id)
        }
        // Declarations first keeps every participant declared before its first use.
        return Trace(events: declarations + kept)
    }
}
