/// Events are saved as flat JSON objects with a `kind` discriminator, e.g.
/// `{"from":"PhoneOp","kind":"message","label":"requestCode(phone)","style":"call","to":"AuthAPI"}`,
/// so a saved trace reads well and a new kind can be added without changing the old ones.
extension TraceEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, participant, by, to, from, label, style, text, frame
    }

    private enum KindName: String {
        case declare, create, release, message, note, launch, finish, frame, branch, end, divider
    }

    /// Decodes an event from its flat JSON form.
    /// - Throws: ``TraceError/unknownEventKind(_:event:)`` for a kind this build does not know
    ///   (the event index is filled in by ``Trace``), or a `DecodingError` for a missing field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .kind)
        guard let kindName = KindName(rawValue: name) else {
            throw TraceError.unknownEventKind(name, event: -1)
        }
        func id(_ key: CodingKeys) throws -> Participant.ID { try container.decode(Participant.ID.self, forKey: key) }
        func text(_ key: CodingKeys = .label) throws -> String { try container.decode(String.self, forKey: key) }
        switch kindName {
        case .declare: kind = .declare(try container.decode(Participant.self, forKey: .participant))
        case .create: kind = .create(try id(.participant), by: try id(.by), label: try text())
        case .release: kind = .release(try id(.participant))
        case .message:
            let style = try container.decode(MessageStyle.self, forKey: .style)
            kind = .message(from: try id(.from), to: try id(.to), label: try text(), style: style)
        case .note: kind = .note(over: try id(.participant), text: try text(.text))
        case .launch: kind = .launch(try id(.participant), by: try id(.by), label: try text())
        case .finish: kind = .finish(try id(.participant), to: try id(.to), label: try text())
        case .frame:
            let frame = try container.decode(FrameKind.self, forKey: .frame)
            kind = .frameOpen(frame, label: try text(), by: try id(.by))
        case .branch: kind = .frameBranch(label: try text())
        case .end: kind = .frameClose
        case .divider: kind = .divider(label: try text())
        }
    }

    /// Encodes the event in its flat JSON form.
    public func encode(to encoder: any Encoder) throws {
        let (name, fields): (KindName, KeyValuePairs<CodingKeys, any Encodable>) =
            switch kind {
            case .declare(let participant): (.declare, [.participant: participant])
            case .create(let service, let creator, let label):
                (.create, [.participant: service, .by: creator, .label: label])
            case .release(let service): (.release, [.participant: service])
            case .message(let from, let to, let label, let style):
                (.message, [.from: from, .to: to, .label: label, .style: style])
            case .note(let participant, let text): (.note, [.participant: participant, .text: text])
            case .launch(let operation, let launcher, let label):
                (.launch, [.participant: operation, .by: launcher, .label: label])
            case .finish(let operation, let launcher, let label):
                (.finish, [.participant: operation, .to: launcher, .label: label])
            case .frameOpen(let frame, let label, let opener): (.frame, [.frame: frame, .label: label, .by: opener])
            case .frameBranch(let label): (.branch, [.label: label])
            case .frameClose: (.end, [:])
            case .divider(let label): (.divider, [.label: label])
            }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name.rawValue, forKey: .kind)
        for (key, value) in fields { try container.encode(value, forKey: key) }
    }
}
