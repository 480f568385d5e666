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
        switch kindName {
        case .declare:
            kind = .declare(try container.decode(Participant.self, forKey: .participant))
        case .create:
            kind = .create(
                try container.decode(Participant.ID.self, forKey: .participant),
                by: try container.decode(Participant.ID.self, forKey: .by),
                label: try container.decode(String.self, forKey: .label))
        case .release:
            kind = .release(try container.decode(Participant.ID.self, forKey: .participant))
        case .message:
            kind = .message(
                from: try container.decode(Participant.ID.self, forKey: .from),
                to: try container.decode(Participant.ID.self, forKey: .to),
                label: try container.decode(String.self, forKey: .label),
                style: try container.decode(MessageStyle.self, forKey: .style))
        case .note:
            kind = .note(
                over: try container.decode(Participant.ID.self, forKey: .participant),
                text: try container.decode(String.self, forKey: .text))
        case .launch:
            kind = .launch(
                try container.decode(Participant.ID.self, forKey: .participant),
                by: try container.decode(Participant.ID.self, forKey: .by),
                label: try container.decode(String.self, forKey: .label))
        case .finish:
            kind = .finish(
                try container.decode(Participant.ID.self, forKey: .participant),
                to: try container.decode(Participant.ID.self, forKey: .to),
                label: try container.decode(String.self, forKey: .label))
        case .frame:
            kind = .frameOpen(
                try container.decode(FrameKind.self, forKey: .frame),
                label: try container.decode(String.self, forKey: .label),
                by: try container.decode(Participant.ID.self, forKey: .by))
        case .branch:
            kind = .frameBranch(label: try container.decode(String.self, forKey: .label))
        case .end:
            kind = .frameClose
        case .divider:
            kind = .divider(label: try container.decode(String.self, forKey: .label))
        }
    }

    /// Encodes the event in its flat JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .declare(let participant):
            try container.encode(KindName.declare.rawValue, forKey: .kind)
            try container.encode(participant, forKey: .participant)
        case .create(let service, let creator, let label):
            try container.encode(KindName.create.rawValue, forKey: .kind)
            try container.encode(service, forKey: .participant)
            try container.encode(creator, forKey: .by)
            try container.encode(label, forKey: .label)
        case .release(let service):
            try container.encode(KindName.release.rawValue, forKey: .kind)
            try container.encode(service, forKey: .participant)
        case .message(let from, let to, let label, let style):
            try container.encode(KindName.message.rawValue, forKey: .kind)
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
            try container.encode(label, forKey: .label)
            try container.encode(style, forKey: .style)
        case .note(let participant, let text):
            try container.encode(KindName.note.rawValue, forKey: .kind)
            try container.encode(participant, forKey: .participant)
            try container.encode(text, forKey: .text)
        case .launch(let operation, let launcher, let label):
            try container.encode(KindName.launch.rawValue, forKey: .kind)
            try container.encode(operation, forKey: .participant)
            try container.encode(launcher, forKey: .by)
            try container.encode(label, forKey: .label)
        case .finish(let operation, let launcher, let label):
            try container.encode(KindName.finish.rawValue, forKey: .kind)
            try container.encode(operation, forKey: .participant)
            try container.encode(launcher, forKey: .to)
            try container.encode(label, forKey: .label)
        case .frameOpen(let frame, let label, let opener):
            try container.encode(KindName.frame.rawValue, forKey: .kind)
            try container.encode(frame, forKey: .frame)
            try container.encode(label, forKey: .label)
            try container.encode(opener, forKey: .by)
        case .frameBranch(let label):
            try container.encode(KindName.branch.rawValue, forKey: .kind)
            try container.encode(label, forKey: .label)
        case .frameClose:
            try container.encode(KindName.end.rawValue, forKey: .kind)
        case .divider(let label):
            try container.encode(KindName.divider.rawValue, forKey: .kind)
            try container.encode(label, forKey: .label)
        }
    }
}
