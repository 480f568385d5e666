public import Operations

/// Exports a trace as a Mermaid `sequenceDiagram`, which GitHub renders in Markdown.
///
/// The export carries the participants (in the same order) and messages of
/// ``TextDiagramRenderer``; Mermaid has no left border, so the (first) caller is declared as the
/// first participant and launches and onFinish are messages to and from it.
/// - calls `->>`, replies `-->>`, async messages `-)`; notes as `Note over`;
/// - frames as `loop`, `alt`/`else`, `par`/`and` and `opt` blocks closed by `end`; a group, which Mermaid
///   cannot label, as a shaded `rect` whose first line is a note with its label;
/// - a divider (a session's start), which Mermaid lacks, as a note across the lifelines
///   declared so far, its label between `══` rules;
/// - activation bars and context services' existence bars as `activate`/`deactivate`, but no
///   bars on key services, whose lifetime is not drawn (a bar there reads as an existence bar);
/// - a context service appears where it is created with `create participant` and ends with
///   `destroy` before its last message. Both need **Mermaid 10.3 or later** (GitHub has it).
///   Where Mermaid's rules cannot express the trace, the export falls back to plain messages and
///   a `Note over X: created` / `Note over X: released`: a service created again after its
///   release (Mermaid forbids reusing an identifier), a service whose last step is a note or its
///   own creation, a destroying message that also creates another service, and any order other
///   than ``ParticipantOrder/firstUse`` (Mermaid places participants by first appearance).
///
/// `;`, `#`, `<` and `>` in labels are written as Mermaid entity codes (`#59;`, `#35;`, `#60;`,
/// `#62;`).
public struct MermaidRenderer: DiagramRenderer {
    /// The lifelines' left-to-right order.
    public var order: ParticipantOrder

    /// Creates a Mermaid exporter.
    /// - Parameter order: The lifelines' left-to-right order.
    public init(order: ParticipantOrder = .firstUse) {
        self.order = order
    }

    /// Renders a trace as Mermaid source.
    /// - Parameter trace: The trace to export.
    /// - Returns: Source starting with `sequenceDiagram`, ending in one newline.
    /// - Throws: A `TraceError` when the trace is invalid.
    public func render(_ trace: Trace) throws(TraceError) -> String {
        let model = try DiagramModel(trace: trace, order: order)
        let aliases = DiagramAliases(model: model)
        var lines = ["sequenceDiagram"]
        func declaration(_ alias: String, _ name: String, create: Bool = false) -> String {
            let keyword = create ? "create participant" : "participant"
            return name == alias ? "    \(keyword) \(alias)" : "    \(keyword) \(alias) as \(Self.escaped(name))"
        }
        let edgeAlias = model.edgeParticipants.first.flatMap { aliases.edges[$0.id] }
        if let caller = model.edgeParticipants.first, let alias = edgeAlias {
            lines.append(declaration(alias, caller.name))
        }

        // Declaring each participant just before its first step keeps Mermaid's order equal to the
        // columns' only when columns are in order of first use.
        let firstSteps = model.columns.map { $0.firstStep ?? Int.max }
        let lazy = zip(firstSteps, firstSteps.dropFirst()).allSatisfy { $0 <= $1 }
        var declared = Array(repeating: false, count: model.columns.count)
        func declare(_ column: Int, create: Bool = false) {
            declared[column] = true
            lines.append(declaration(aliases.columns[column], model.columns[column].participant.name, create: create))
        }
        for column in model.columns.indices where !lazy { declare(column) }
        var createdOnce = Array(repeating: false, count: model.columns.count)

        /// Mermaid has `loop`, `alt` and `opt`, but no labelled group: a group is a `rect`
        /// whose first line is a note with its label, over the participant that opened it.
        func openFrame(_ kind: FrameKind, _ label: String, opener: DiagramModel.End) {
            guard kind == .group else { return lines.append(Self.frameLine(kind.rawValue, label)) }
            lines.append("    rect rgba(128, 128, 128, 0.08)")
            if let column = opener.column, !label.isEmpty {
                if !declared[column] { declare(column) }
                lines.append("    Note over \(aliases.columns[column]): \(Self.text(label))")
            }
        }

        /// Mermaid has no divider (PlantUML's `==`): a note across every lifeline declared so far
        /// stands for it. Declaring the others here would move them out of their order of first
        /// use, or spoil a later `create participant`.
        func divider(_ label: String) -> String {
            let text = Self.text(label)
            let spanned =
                [edgeAlias].compactMap { $0 }
                + model.columns.indices.filter { declared[$0] }.map { aliases.columns[$0] }
            let over = spanned.count > 1 ? "\(spanned[0]),\(spanned[spanned.count - 1])" : spanned.first ?? "Caller"
            return "    Note over \(over): ══ \(text.isEmpty ? "…" : text) ══"
        }

        for step in model.steps {
            func name(_ end: DiagramModel.End) -> String {
                end.column.map { aliases.columns[$0] } ?? edgeAlias ?? "Caller"
            }
            // A context service created here for the first time is declared by `create`.
            var createdHere: Int?
            if case .create(_, let created) = step.action, lazy, !createdOnce[created], !declared[created] {
                createdHere = created
            }
            for end in [step.sender, step.receiver] {
                guard let column = end.column, !declared[column], column != createdHere else { continue }
                declare(column)
            }

            // Mermaid destroys a participant with the message right after `destroy`.
            var destroyed: [Int] = []
            var released: [Int] = []
            for ending in step.endings where ending.crossed {
                if Self.canDestroy(ending.column, in: step) {
                    destroyed.append(ending.column)
                } else {
                    released.append(ending.column)
                }
            }
            if let created = createdHere {
                createdOnce[created] = true
                declare(created, create: true)
            } else if case .create(_, let created) = step.action {
                createdOnce[created] = true
                lines.append("    Note over \(aliases.columns[created]): created")
            }
            for column in destroyed { lines.append("    destroy \(aliases.columns[column])") }

            let label = model.label(of: step)
            switch step.action {
            case .message(let from, let to, let style):
                lines.append("    \(name(from))\(Self.glyph(style))\(name(to)): \(Self.text(label))")
            case .create(let from, let to), .launch(let from, let to):
                lines.append("    \(name(from))->>\(aliases.columns[to]): \(Self.text(label))")
            case .finish(let operation, let launcher):
                lines.append("    \(aliases.columns[operation])-->>\(name(launcher)): \(Self.text(label))")
            case .note(let column):
                let body = LabelWrapper.paragraphs(label).map(Self.escaped).joined(separator: "<br/>")
                lines.append("    Note over \(aliases.columns[column]): \(body)")
            case .frameOpen(let kind, _, let opener):
                openFrame(kind, label, opener: opener)
            case .frameBranch(let kind, _):
                lines.append(Self.frameLine(kind == .par ? "and" : "else", label))
            case .frameClose:
                lines.append("    end")
            case .divider:
                lines.append(divider(label))
            }

            if step.opensBar, let receiver = step.receiver.column, model.exportsBars(on: receiver) {
                lines.append("    activate \(aliases.columns[receiver])")
            }
            if case .create(_, let created) = step.action, step.createdHasLife {
                lines.append("    activate \(aliases.columns[created])")
            }
            if step.closesBar, let sender = step.sender.column, model.exportsBars(on: sender) {
                lines.append("    deactivate \(aliases.columns[sender])")
            }
            for ending in step.endings where ending.hadBar {
                lines.append("    deactivate \(aliases.columns[ending.column])")
            }
            for column in released { lines.append("    Note over \(aliases.columns[column]): released") }
        }
        // Participants no step involves still get their lifeline.
        for column in model.columns.indices where !declared[column] { declare(column) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether `destroy` can precede this step: Mermaid needs the very next message to involve
    /// the participant, and a creating message already answers the pending `create`.
    private static func canDestroy(_ column: Int, in step: DiagramModel.Step) -> Bool {
        switch step.action {
        case .note, .create, .frameOpen, .frameBranch, .frameClose, .divider: return false
        case .message, .launch, .finish:
            return step.sender.column == column || step.receiver.column == column
        }
    }

    /// A frame's keyword line: `loop retry 2 of 3`, `else wrong code`.
    private static func frameLine(_ keyword: String, _ label: String) -> String {
        let text = text(label)
        return text.isEmpty ? "    \(keyword)" : "    \(keyword) \(text)"
    }

    private static func glyph(_ style: MessageStyle) -> String {
        switch style {
        case .call: return "->>"
        case .reply: return "-->>"
        case .async: return "-)"
        }
    }

    private static func text(_ label: String) -> String {
        escaped(LabelWrapper.sanitize(label))
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case ";": result += "#59;"
            case "#": result += "#35;"
            case "<": result += "#60;"
            case ">": result += "#62;"
            default: result.append(character)
            }
        }
        return result
    }
}
