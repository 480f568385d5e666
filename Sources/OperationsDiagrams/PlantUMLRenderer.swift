public import Operations

/// Exports a trace as PlantUML sequence-diagram source, for rendering as an image.
///
/// The export carries exactly the participants (in the same order) and messages of
/// ``TextDiagramRenderer``:
/// - every lifeline is declared up front, in column order; the caller is PlantUML's left border
///   (`[->` for a launch, `[<--` for onFinish);
/// - calls `->`, replies `-->`, async messages `->>`;
/// - a context service gets `create` before the message that creates it, `activate` for its
///   existence bar, `deactivate` after its last message and `destroy` when it was released;
/// - activation bars as `activate`/`deactivate`, except on key services, whose lifetime is not
///   drawn (a bar there reads as an existence bar); notes as `note over`;
/// - frames as `loop`, `alt`/`else`, `par`/`else`, `opt` and `group` blocks closed by `end`;
/// - a divider (a session's start) as `== label ==`.
///
/// Backslashes in labels are doubled so PlantUML does not read `\n` as a line break; creole
/// markup (`**`, `//`, `--`) in labels is passed through.
public struct PlantUMLRenderer: DiagramRenderer {
    /// The lifelines' left-to-right order.
    public var order: ParticipantOrder

    /// Creates a PlantUML exporter.
    /// - Parameter order: The lifelines' left-to-right order.
    public init(order: ParticipantOrder = .firstUse) {
        self.order = order
    }

    /// Renders a trace as PlantUML source.
    /// - Parameter trace: The trace to export.
    /// - Returns: Source from `@startuml` to `@enduml`, ending in one newline.
    /// - Throws: A `TraceError` when the trace is invalid.
    public func render(_ trace: Trace) throws(TraceError) -> String {
        let model = try DiagramModel(trace: trace, order: order)
        let aliases = DiagramAliases(model: model)
        var lines = ["@startuml"]
        for (index, column) in model.columns.enumerated() {
            let alias = aliases.columns[index]
            let name = column.participant.name
            lines.append(name == alias ? "participant \(alias)" : "participant \"\(Self.quoted(name))\" as \(alias)")
        }
        for step in model.steps {
            func name(_ end: DiagramModel.End) -> String? { end.column.map { aliases.columns[$0] } }
            let label = model.label(of: step)
            switch step.action {
            case .message(let from, let to, let style):
                lines.append(Self.arrow(from: name(from), to: name(to), style: style, label: label))
            case .create(let creator, let created):
                lines.append("create \(aliases.columns[created])")
                lines.append(Self.arrow(from: name(creator), to: aliases.columns[created], style: .call, label: label))
            case .launch(let launcher, let operation):
                lines.append(
                    Self.arrow(from: name(launcher), to: aliases.columns[operation], style: .call, label: label))
            case .finish(let operation, let launcher):
                lines.append(
                    Self.arrow(from: aliases.columns[operation], to: name(launcher), style: .reply, label: label))
            case .note(let column):
                let noteLines = LabelWrapper.paragraphs(label)
                if noteLines.count == 1 {
                    lines.append("note over \(aliases.columns[column]) : \(Self.escaped(noteLines[0]))")
                } else {
                    lines.append("note over \(aliases.columns[column])")
                    lines.append(contentsOf: noteLines.map(Self.escaped))
                    lines.append("end note")
                }
            case .frameOpen(let kind, _, _):
                lines.append(Self.frameLine(kind.rawValue, label))
            case .frameBranch:
                lines.append(Self.frameLine("else", label))
            case .frameClose:
                lines.append("end")
            case .divider:
                let text = Self.escaped(LabelWrapper.sanitize(label))
                lines.append("== \(text.isEmpty ? "…" : text) ==")
            }
            if step.opensBar, let column = step.receiver.column, model.exportsBars(on: column) {
                lines.append("activate \(aliases.columns[column])")
            }
            if case .create(_, let created) = step.action, step.createdHasLife {
                lines.append("activate \(aliases.columns[created])")
            }
            if step.closesBar, let column = step.sender.column, model.exportsBars(on: column) {
                lines.append("deactivate \(aliases.columns[column])")
            }
            for ending in step.endings {
                if ending.hadBar { lines.append("deactivate \(aliases.columns[ending.column])") }
                if ending.crossed { lines.append("destroy \(aliases.columns[ending.column])") }
            }
        }
        lines.append("@enduml")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A frame's keyword line: `loop retry 2 of 3`, `else wrong code`, `group AuthScenario`.
    private static func frameLine(_ keyword: String, _ label: String) -> String {
        let text = escaped(LabelWrapper.sanitize(label))
        return text.isEmpty ? keyword : "\(keyword) \(text)"
    }

    /// One message line; a `nil` end is the left border.
    private static func arrow(from: String?, to: String?, style: MessageStyle, label: String) -> String {
        let text = escaped(LabelWrapper.sanitize(label))
        let suffix = text.isEmpty ? "" : " : \(text)"
        switch (from, to) {
        case (let from?, let to?):
            return "\(from) \(glyph(style)) \(to)\(suffix)"
        case (nil, let to?):
            return "[\(glyph(style)) \(to)\(suffix)"
        case (let from?, nil):
            // The same arrow mirrored: `<-`, `<--`, `<<-`.
            return "[\(String(glyph(style).reversed().map { $0 == ">" ? "<" : $0 })) \(from)\(suffix)"
        case (nil, nil):
            return "' unreachable: a message between two callers"
        }
    }

    private static func glyph(_ style: MessageStyle) -> String {
        switch style {
        case .call: return "->"
        case .reply: return "-->"
        case .async: return "->>"
        }
    }

    private static func escaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        return text.reduce(into: "") { result, character in result += character == "\\" ? "\\\\" : String(character) }
    }

    private static func quoted(_ text: String) -> String {
        String(LabelWrapper.sanitize(text).map { $0 == "\"" ? "'" : $0 })
    }
}
