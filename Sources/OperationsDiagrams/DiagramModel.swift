import Operations

/// A trace checked for consistency and analysed for drawing: the columns in order and one step
/// per drawable event, with the activation bars and lifetimes resolved.
///
/// All three renderers draw from this one model, so they show the same participants in the same
/// order and the same messages.
struct DiagramModel {
    /// One end of an arrow: the caller edge or a column.
    enum End: Hashable {
        case edge
        case column(Int)

        var column: Int? {
            if case .column(let index) = self { return index }
            return nil
        }
    }

    /// A lifeline.
    struct Column {
        let participant: Participant
        /// The deepest stack of bars this column ever shows (0 = plain lifeline only).
        var maxDepth = 0
        /// The step that first involves this column, or `nil` if none does.
        var firstStep: Int?
    }

    /// What a step draws. Its text is kept beside the steps (``label(of:)``).
    enum Action {
        case message(from: End, to: End, style: MessageStyle)
        case create(creator: End, created: Int)
        case launch(launcher: End, operation: Int)
        case finish(operation: Int, launcher: End)
        case note(column: Int)
        /// A frame opens at nesting `level` (0 = outermost), opened by `opener`.
        case frameOpen(kind: FrameKind, level: Int, opener: End)
        /// The next branch of the frame at `level`, a frame of `kind` (``FrameKind/alt`` or
        /// ``FrameKind/par``).
        case frameBranch(kind: FrameKind, level: Int)
        /// The frame at `level` closes.
        case frameClose(level: Int)
        /// A labelled rule across the drawing (a session's start), inside `level` open frames.
        case divider(level: Int)

    }

    /// A context service whose existence ends after a step (its last message).
    struct Ending {
        let column: Int
        /// Whether it was released (an X) or simply outlives the trace (its lifeline goes on).
        let crossed: Bool
        /// Whether it had an existence bar (it took part in something after its creation).
        let hadBar: Bool
    }

    struct Step {
        var action: Action
        let event: Int
        /// The receiver's activation bar opens on this step (a call that gets a reply, a launch).
        var opensBar = false
        /// The sender's innermost activation bar closes after this step (a matched reply, a
        /// finish).
        var closesBar = false
        /// For a creation: the created service takes part in a later step, so its existence bar
        /// starts right under its head box.
        var createdHasLife = false
        /// Context services whose existence ends after this step.
        var endings: [Ending] = []
        /// For a note: the first column right of it with a bar open at that moment, which the
        /// note's box must stop short of; `nil` when every lifeline to its right is idle (a
        /// box may cover an idle lifeline, as in PlantUML's drawings, but never a bar).
        var noteLimit: Int?

        /// The ends this step touches, sender first.
        var sender: End { ends.sender }
        var receiver: End { ends.receiver }

        private var ends: (sender: End, receiver: End) {
            switch action {
            case .message(let from, let to, _): return (from, to)
            case .create(let creator, let created): return (creator, .column(created))
            case .launch(let launcher, let operation): return (launcher, .column(operation))
            case .finish(let operation, let launcher): return (.column(operation), launcher)
            case .note(let column): return (.column(column), .column(column))
            case .frameOpen, .frameBranch, .frameClose, .divider: return (.edge, .edge)
            }
        }
    }

    private(set) var columns: [Column] = []
    private(set) var steps: [Step] = []
    /// Callers that appear as the left edge, in order of first use (Mermaid draws them).
    private(set) var edgeParticipants: [Participant] = []
    /// How many frames are ever open at once: the text renderer keeps that many columns on each
    /// side for their borders.
    private(set) var frameDepth = 0
    /// Each event's text (a label, a note, a frame's reason), by event index (``Step/event``).
    private let labels: [String]

    init(trace: Trace, order: ParticipantOrder) throws(TraceError) {
        var analyser = Analyser(trace: trace, order: order)
        try analyser.run()
        labels = analyser.labels
        columns = analyser.columns
        steps = analyser.steps
        edgeParticipants = analyser.edgeParticipants

        // Replays the bars to find each column's deepest stack, which decides how much room the
        // column needs on each side.
        var depth = [Int](repeating: 0, count: columns.count)
        for index in steps.indices {
            let step = steps[index]
            if case .frameOpen(_, let level, _) = step.action { frameDepth = max(frameDepth, level + 1) }
            if case .note(let column) = step.action {
                steps[index].noteLimit = depth.indices.first { $0 > column && depth[$0] > 0 }
            }
            if step.opensBar, let receiver = step.receiver.column {
                depth[receiver] += 1
                columns[receiver].maxDepth = max(columns[receiver].maxDepth, depth[receiver])
            }
            if case .create(_, let created) = step.action, step.createdHasLife {
                depth[created] += 1
                columns[created].maxDepth = max(columns[created].maxDepth, depth[created])
            }
            if step.closesBar, let sender = step.sender.column { depth[sender] -= 1 }
            for ending in step.endings where ending.hadBar { depth[ending.column] -= 1 }
        }
    }

    /// The text a step shows: a message's label, a note's text, a frame's reason (empty for a
    /// frame's close).
    func label(of step: Step) -> String {
        labels[step.event]
    }

    /// Whether the PlantUML and Mermaid exports draw activation bars on a column: not on a key
    /// service, whose lifetime is not drawn (seeds/003: it spans the operation). Both tools draw
    /// an activation as the same box a context service's existence bar is, so a bar there would
    /// read as a lifetime it does not have; the text renderer's call bars are narrower than a
    /// context service's head and X, so it keeps them.
    func exportsBars(on column: Int) -> Bool {
        columns[column].participant.kind != .keyService
    }
}

// MARK: - Analysis

extension DiagramModel {
    /// The single validating pass over the events.
    private struct Analyser {
        enum EntryKind { case call, creation, launch }

        struct Entry {
            /// The sender's ``Resolved/key``: compared instead of its id.
            let fromKey: Int
            let kind: EntryKind
            let step: Int
        }

        /// A declared participant with what every event asks of it, found with one lookup; the
        /// participant itself is `declaredParticipants[key]`, read when an error names it.
        struct Resolved {
            let kind: Participant.Kind
            /// Its column; `nil` for a caller, drawn at the edge.
            let column: Int?
            /// Its position among the declared participants: equal keys, equal ids.
            let key: Int
        }

        enum Life { case notCreated, alive, released }

        let trace: Trace
        let order: ParticipantOrder
        var columns: [Column] = []
        var steps: [Step] = []
        var edgeParticipants: [Participant] = []
        /// Each event's text, filled in as the events are applied.
        var labels: [String] = []

        var declared = [Participant.ID: Resolved]()
        /// Every declared participant, by ``Resolved/key``.
        var declaredParticipants: [Participant] = []
        var columnOf = [Participant.ID: Int]()
        var edgeSeen = Set<Participant.ID>()
        var pending: [[Entry]] = []
        var life: [Life] = []
        var running: [Bool] = []
        var createStep: [Int] = []
        var lastUse: [Int] = []
        /// The frames open now, innermost last, with the step that opened each.
        var frames: [(kind: FrameKind, label: String, step: Int)] = []

        mutating func run() throws(TraceError) {
            placeColumns()
            pending = Array(repeating: [], count: columns.count)
            life = columns.map { $0.participant.kind == .contextService ? .notCreated : .alive }
            running = Array(repeating: false, count: columns.count)
            createStep = Array(repeating: -1, count: columns.count)
            lastUse = Array(repeating: -1, count: columns.count)
            steps.reserveCapacity(trace.events.count)
            labels = Array(repeating: "", count: trace.events.count)

            for (index, event) in trace.events.enumerated() {
                try apply(event, at: index)
            }
            for (column, isRunning) in running.enumerated() where isRunning {
                throw .neverFinished(columns[column].participant.id)
            }
            if let open = frames.last { throw .frameNeverClosed(open.kind, label: open.label) }
            for column in columns.indices
            where life[column] == .alive
                && columns[column].participant.kind == .contextService
            {
                finishLife(of: column, crossed: false)
            }
        }

        /// Decides the column order before the validating pass, so steps can refer to columns.
        private mutating func placeColumns() {
            var kinds = [Participant.ID: Participant]()
            // How many participants get a column: once all have one, the rest of the events
            // cannot change the order.
            var placeable = 0
            for participant in trace.participants where kinds[participant.id] == nil {
                kinds[participant.id] = participant
                if participant.kind != .caller { placeable += 1 }
            }
            func place(_ id: Participant.ID) {
                guard columnOf[id] == nil, let participant = kinds[id], participant.kind != .caller else { return }
                columnOf[id] = columns.count
                columns.append(Column(participant: participant))
            }
            if order == .firstUse {
                for event in trace.events {
                    if columns.count == placeable { break }
                    switch event.kind {
                    case .declare, .release, .frameOpen, .frameBranch, .frameClose, .divider: continue
                    case .create(let service, let creator, _):
                        place(creator)
                        place(service)
                    case .message(let from, let to, _, _):
                        place(from)
                        place(to)
                    case .note(let participant, _): place(participant)
                    case .launch(let operation, let launcher, _):
                        place(launcher)
                        place(operation)
                    case .finish(let operation, let launcher, _):
                        place(operation)
                        place(launcher)
                    }
                }
            }
            for participant in trace.participants { place(participant.id) }
        }

        private mutating func apply(_ event: TraceEvent, at index: Int) throws(TraceError) {
            switch event.kind {
            case .declare(let participant):
                if let existing = declared[participant.id] {
                    guard declaredParticipants[existing.key] == participant else {
                        throw .conflictingDeclaration(participant.id, event: index)
                    }
                } else {
                    declared[participant.id] = Resolved(
                        kind: participant.kind, column: columnOf[participant.id], key: declaredParticipants.count)
                    declaredParticipants.append(participant)
                }

            case .create(let serviceID, let creatorID, let label):
                labels[index] = label
                let service = try resolve(serviceID, index)
                let creator = try resolve(creatorID, index)
                try expect(service, .contextService, index)
                try checkAlive(creator, index)
                guard let column = service.column else { return }
                if life[column] == .alive { throw .createdTwice(serviceID, event: index) }
                let step = append(.create(creator: end(of: creator), created: column), index)
                life[column] = .alive
                createStep[column] = step
                markUse(creator, step)
                markUse(service, step)
                pending[column].append(Entry(fromKey: creator.key, kind: .creation, step: step))

            case .release(let serviceID):
                let service = try resolve(serviceID, index)
                try expect(service, .contextService, index)
                guard let column = service.column, life[column] == .alive else {
                    throw .releasedWhileNotAlive(serviceID, event: index)
                }
                finishLife(of: column, crossed: true)

            case .message(let fromID, let toID, let label, let style):
                labels[index] = label
                let from = try resolve(fromID, index)
                let to = try resolve(toID, index)
                if from.kind == .caller && to.kind == .caller {
                    throw .callerMisused(fromID, event: index)
                }
                try checkAlive(from, index)
                try checkAlive(to, index)
                let step = append(.message(from: end(of: from), to: end(of: to), style: style), index)
                markUse(from, step)
                markUse(to, step)
                guard from.key != to.key else { return }
                switch style {
                case .call:
                    if let column = to.column {
                        pending[column].append(Entry(fromKey: from.key, kind: .call, step: step))
                    }
                case .reply:
                    guard let column = from.column else { return }  // replies from the edge draw no bar
                    try matchReply(in: column, to: to, step: step, event: index)
                case .async:
                    break
                }

            case .note(let participantID, let text):
                labels[index] = text
                let participant = try resolve(participantID, index)
                if participant.kind == .caller { throw .callerMisused(participantID, event: index) }
                try checkAlive(participant, index)
                guard let column = participant.column else { return }
                markUse(participant, append(.note(column: column), index))

            case .launch(let operationID, let launcherID, let label):
                labels[index] = label
                let operation = try resolve(operationID, index)
                let launcher = try resolve(launcherID, index)
                try expect(operation, .operation, index)
                try checkAlive(launcher, index)
                guard let column = operation.column else { return }
                if running[column] { throw .launchedWhileRunning(operationID, event: index) }
                let step = append(.launch(launcher: end(of: launcher), operation: column), index)
                steps[step].opensBar = true
                running[column] = true
                pending[column].append(Entry(fromKey: launcher.key, kind: .launch, step: step))
                markUse(launcher, step)

            case .finish(let operationID, let launcherID, let label):
                labels[index] = label
                let operation = try resolve(operationID, index)
                let launcher = try resolve(launcherID, index)
                try expect(operation, .operation, index)
                guard let column = operation.column, running[column],
                    let entryIndex = pending[column].lastIndex(where: { $0.kind == .launch })
                else { throw .finishedBeforeLaunch(operationID, event: index) }
                let entry = pending[column][entryIndex]
                guard entry.fromKey == launcher.key else {
                    throw .finishedToWrongParticipant(
                        operationID, launchedBy: declaredParticipants[entry.fromKey].id, finishedTo: launcherID,
                        event: index)
                }
                try checkAlive(launcher, index)
                pending[column].removeSubrange(entryIndex...)
                running[column] = false
                let step = append(.finish(operation: column, launcher: end(of: launcher)), index)
                steps[step].closesBar = true
                markUse(launcher, step)

            case .frameOpen(let kind, let label, let openerID):
                labels[index] = label
                let opener = try resolve(openerID, index)
                let step = append(.frameOpen(kind: kind, level: frames.count, opener: end(of: opener)), index)
                frames.append((kind, label, step))

            case .frameBranch(let label):
                labels[index] = label
                guard let open = frames.last else { throw .frameNotOpen(event: index) }
                guard open.kind.hasBranches else { throw .branchOutsideAlt(open.kind, event: index) }
                append(.frameBranch(kind: open.kind, level: frames.count - 1), index)

            case .divider(let label):
                labels[index] = label
                append(.divider(level: frames.count), index)

            case .frameClose:
                guard let open = frames.popLast() else { throw .frameNotOpen(event: index) }
                // A frame around nothing (its insides limited away, a branch never taken) is
                // dropped: it would say nothing, and PlantUML rejects an empty block.
                let onlyFrameEdges = steps[open.step...].allSatisfy {
                    switch $0.action {
                    case .frameOpen, .frameBranch, .frameClose: true
                    default: false
                    }
                }
                if onlyFrameEdges {
                    steps.removeSubrange(open.step...)
                } else {
                    append(.frameClose(level: frames.count), index)
                }
            }
        }

        /// A reply closes the replier's innermost open call from its receiver; calls opened above
        /// it were never answered and draw no bar. A launch is never crossed: an operation answers
        /// its launcher with a finish.
        private mutating func matchReply(
            in column: Int, to receiver: Resolved, step: Int, event: Int
        ) throws(TraceError) {
            var position = pending[column].count - 1
            while position >= 0 {
                let entry = pending[column][position]
                if entry.fromKey == receiver.key && entry.kind != .launch { break }
                if entry.kind == .launch {
                    position = -1
                    break
                }
                position -= 1
            }
            guard position >= 0 else {
                throw .unmatchedReply(
                    from: columns[column].participant.id, to: declaredParticipants[receiver.key].id, event: event)
            }
            let entry = pending[column][position]
            pending[column].removeSubrange(position...)
            if entry.kind == .call {
                steps[entry.step].opensBar = true
                steps[step].closesBar = true
            }
        }

        /// Appends the step drawing event `event`; returns its index.
        @discardableResult
        private mutating func append(_ action: Action, _ event: Int) -> Int {
            steps.append(Step(action: action, event: event))
            return steps.count - 1
        }

        private mutating func resolve(_ id: Participant.ID, _ event: Int) throws(TraceError) -> Resolved {
            guard let resolved = declared[id] else { throw .undeclaredParticipant(id, event: event) }
            if resolved.kind == .caller, edgeSeen.insert(id).inserted {
                edgeParticipants.append(declaredParticipants[resolved.key])
            }
            return resolved
        }

        private func expect(_ resolved: Resolved, _ kind: Participant.Kind, _ event: Int) throws(TraceError) {
            guard resolved.kind == kind else {
                throw .wrongKind(
                    declaredParticipants[resolved.key].id, kind: resolved.kind, expected: kind, event: event)
            }
        }

        private func checkAlive(_ resolved: Resolved, _ event: Int) throws(TraceError) {
            guard resolved.kind == .contextService, let column = resolved.column else { return }
            switch life[column] {
            case .alive: return
            case .notCreated: throw .usedBeforeCreation(declaredParticipants[resolved.key].id, event: event)
            case .released: throw .usedAfterRelease(declaredParticipants[resolved.key].id, event: event)
            }
        }

        private func end(of resolved: Resolved) -> End {
            guard resolved.kind != .caller, let column = resolved.column else { return .edge }
            return .column(column)
        }

        private mutating func markUse(_ resolved: Resolved, _ step: Int) {
            guard let column = resolved.column else { return }
            if columns[column].firstStep == nil { columns[column].firstStep = step }
            if resolved.kind == .contextService { lastUse[column] = step }
        }

        /// Ends a context service's life: its existence bar (if it had one) ends after its last
        /// step, followed by an X when it was released.
        private mutating func finishLife(of column: Int, crossed: Bool) {
            let last = lastUse[column]
            let created = createStep[column]
            let hadBar = last > created
            steps[created].createdHasLife = hadBar
            steps[last].endings.append(Ending(column: column, crossed: crossed, hadBar: hadBar))
            life[column] = crossed ? .released : .notCreated
            pending[column].removeAll()
        }
    }
}
