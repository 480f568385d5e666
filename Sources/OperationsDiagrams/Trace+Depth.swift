public import Operations

extension Trace {
    /// The trace as seen from `depth` levels of launches: operations launched deeper are drawn
    /// as black boxes — their launch and finish stay, the messages inside them go.
    ///
    /// The caller is level 0, what it launches level 1, and so on; a context service belongs to
    /// the operation that created it, and what a key service launches is one level below the
    /// operation running when it launched. `limited(toDepth: 2)` of a scenario's trace shows the
    /// scenario launching its operations without their insides: the scenario's own diagram.
    ///
    /// An operation drawn as a black box that retried inside itself (a `retry 2 of 3: …` note
    /// or loop frame of its own, as `PhoneEntry.swift` in AuthFlow writes) gets a
    /// `took 2 attempts` note just before its finish: the retry is gone with its insides, and
    /// without the note the drawing would say the step went through at the first try.
    ///
    /// - Parameter depth: How many levels keep their insides; participants no kept event
    ///   mentions are dropped.
    /// - Returns: The reduced trace; the same trace when nothing is deeper.
    public func limited(toDepth depth: Int) -> Trace {
        /// The level of each operation's current launch and of each context service's current
        /// life: an operation launched in several places (a check the app makes, and a nested
        /// scenario again) is as deep as the launch running now, and a service as deep as the
        /// operation that created it was then.
        var level: [Participant.ID: Int] = [:]
        var owner: [Participant.ID: Participant.ID] = [:]
        var kind: [Participant.ID: Participant.Kind] = [:]
        for participant in participants { kind[participant.id] = participant.kind }

        /// The operation (or caller) whose insides an event of `id` belongs to.
        func operation(of id: Participant.ID) -> Participant.ID { owner[id] ?? id }
        func levelOf(_ id: Participant.ID) -> Int { level[id] ?? 0 }
        func isKeyService(_ id: Participant.ID) -> Bool { kind[id] == .keyService }

        var kept: [TraceEvent] = []
        var mentioned: Set<Participant.ID> = []
        /// The operations running, innermost last, each with whether its launch is kept: a
        /// mark too deep to keep goes over the innermost one that is drawn.
        var running: [(operation: Participant.ID, drawn: Bool)] = []
        var lastDrawn: Participant.ID?
        /// Whether each open frame is kept: a frame belongs to the insides of its opener.
        var frames: [Bool] = []
        /// The attempts each black-boxed operation made, as its own dropped retry notes say.
        var attempts: [Participant.ID: Int] = [:]
        func countAttempt(_ text: String, by id: Participant.ID) {
            guard kind[id] == .operation, levelOf(id) == depth, let attempt = Self.retryAttempt(text) else { return }
            attempts[id] = max(attempts[id] ?? 1, attempt)
        }
        for event in events {
            let keep: Bool
            switch event.kind {
            case .declare(let participant):
                kind[participant.id] = participant.kind
                continue
            case .launch(let op, let launcher, _):
                // A key service that launches (seeds/003's lone operation) acts for the operation
                // that called it: what it launches is one level below that one.
                let base =
                    isKeyService(launcher) ? running.last.map { levelOf($0.operation) } ?? 0 : levelOf(launcher)
                level[op] = base + 1
                keep = base < depth
                if keep { mentioned.formUnion([op, operation(of: launcher)]) }
                running.append((op, keep))
                if keep { lastDrawn = op }
            case .finish(let op, let launcher, _):
                if let index = running.lastIndex(where: { $0.operation == op }) { running.remove(at: index) }
                keep = (isKeyService(launcher) ? levelOf(op) - 1 : levelOf(launcher)) < depth
                if keep { mentioned.formUnion([op, operation(of: launcher)]) }
                if keep, let count = attempts.removeValue(forKey: op) {
                    kept.append(.note(over: op, "took \(count) attempts"))
                }
            case .create(let service, let creator, _):
                owner[service] = operation(of: creator)
                level[service] = levelOf(creator)
                keep = levelOf(creator) < depth
                if keep { mentioned.formUnion([service, creator]) }
            case .release(let service):
                keep = levelOf(service) < depth
            case .message(let from, let to, _, _):
                let inside = [from, to].filter { !isKeyService($0) }.map(levelOf).max() ?? 0
                keep = inside < depth
                if keep { mentioned.formUnion([from, to]) }
            case .note(let over, let text):
                keep = isKeyService(over) || levelOf(over) < depth
                if keep {
                    mentioned.insert(over)
                } else if Self.isMark(text), let drawn = running.last(where: \.drawn)?.operation ?? lastDrawn {
                    // What a trace could not record whole is said at any depth.
                    kept.append(.note(over: drawn, text))
                    mentioned.insert(drawn)
                } else {
                    countAttempt(text, by: over)
                }
            case .frameOpen(let frameKind, let label, let opener):
                keep = levelOf(opener) < depth
                frames.append(keep)
                if keep { mentioned.insert(operation(of: opener)) }
                if !keep, frameKind == .loop { countAttempt(label, by: opener) }
            case .frameBranch:
                keep = frames.last ?? true
            case .frameClose:
                keep = frames.popLast() ?? true
            case .divider:
                keep = true
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

    /// The start of a note that says a drawing could not draw part of what its trace recorded
    /// as it was (`unbalanced: CodeOp finished twice`).
    public static let unbalancedPrefix = "unbalanced: "

    /// Whether a note says the trace is not whole: `cut off` where a session stopped, `running:`
    /// where a live run is, a line of the trace file that could not be read, a part a drawing
    /// could not balance. Such a
    /// note is kept at every depth, over the innermost operation drawn.
    public static func isMark(_ note: String) -> Bool {
        note == cutOffLabel || note.hasPrefix(runningPrefix) || note.hasPrefix(unbalancedPrefix)
            || note.hasPrefix("trace line ")
            || note.hasPrefix("trace cut off")
    }

    /// The attempt a retry note or frame announces: 2 for `retry 2 of 3: unavailable`.
    static func retryAttempt(_ text: String) -> Int? {
        guard text.hasPrefix("retry ") else { return nil }
        let number = text.dropFirst("retry ".count).prefix { $0.isNumber }
        guard let attempt = Int(number), attempt > 1,
            text.dropFirst("retry ".count + number.count).hasPrefix(" of ")
        else { return nil }
        return attempt
    }
}
