/// One thing that happened while an operation ran, in the order it happened.
///
/// Events refer to participants by ``Participant/ID``; a participant must be declared (with
/// ``Kind/declare(_:)``) before an event refers to it. The event is a struct around a ``Kind`` so
/// that it can grow (a thread name, a time) without breaking ``Tracer`` conformers.
public struct TraceEvent: Hashable, Sendable {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// A participant becomes known to the trace, with its display name and role. Declaring
        /// the same participant again is allowed and changes nothing.
        case declare(Participant)
        /// A context service is created by another participant (the creating arrow, labelled,
        /// e.g. `create`); its lifeline starts here.
        case create(Participant.ID, by: Participant.ID, label: String)
        /// A context service is released; a diagram marks its end with an X after its last
        /// message, and no message may involve it afterwards.
        case release(Participant.ID)
        /// A message from one participant to another (or to itself).
        case message(from: Participant.ID, to: Participant.ID, label: String, style: MessageStyle)
        /// A note attached to a participant's lifeline.
        case note(over: Participant.ID, text: String)
        /// An operation is launched by a caller or a parent operation, e.g. `launch(phone)`; its
        /// activation bar opens.
        case launch(Participant.ID, by: Participant.ID, label: String)
        /// An operation finishes back to whoever launched it, e.g. `onFinish(tok…a1f3)`; its
        /// activation bar closes.
        case finish(Participant.ID, to: Participant.ID, label: String)
        /// A frame opens around the events that follow, until its ``frameClose``: a retry, a
        /// re-ask, a conditional step, a nested scenario. `by` is the participant that opened it
        /// (a scenario, an operation), so a diagram limited in depth drops the frames of the
        /// insides it drops. Frames nest; the innermost open frame is the one a branch or a close
        /// applies to.
        case frameOpen(FrameKind, label: String, by: Participant.ID)
        /// The next branch of the innermost open ``FrameKind/alt`` frame (its `else`).
        case frameBranch(label: String)
        /// The innermost open frame closes.
        case frameClose
        /// A rule across the whole diagram with a label, between two parts that are one drawing
        /// but not one piece of work: where each session of a run (the run, then each rerun)
        /// starts, or between the launches of one step drawn together. PlantUML draws it as
        /// `== label ==`; it involves no participant.
        case divider(label: String)
    }

    /// What happened.
    public var kind: Kind

    /// Creates an event of `kind`.
    public init(_ kind: Kind) { self.kind = kind }
}

// MARK: - API

extension TraceEvent {
    /// Declares `participant`, with its display name and role.
    public static func declare(_ participant: Participant) -> TraceEvent {
        TraceEvent(.declare(participant))
    }

    /// `creator` creates the context service `service`, the arrow labelled `label`.
    public static func create(
        _ service: Participant.ID, by creator: Participant.ID, _ label: String = "create"
    ) -> TraceEvent {
        TraceEvent(.create(service, by: creator, label: label))
    }

    /// The context service `service` is released.
    public static func release(_ service: Participant.ID) -> TraceEvent {
        TraceEvent(.release(service))
    }

    /// A synchronous call from `from` to `to`, labelled e.g. `requestCode(phone)`.
    public static func call(from: Participant.ID, to: Participant.ID, _ label: String) -> TraceEvent {
        TraceEvent(.message(from: from, to: to, label: label, style: .call))
    }

    /// A reply from `from`, the participant called, to `to`, its caller; labelled e.g. with the
    /// returned value.
    public static func reply(from: Participant.ID, to: Participant.ID, _ label: String) -> TraceEvent {
        TraceEvent(.message(from: from, to: to, label: label, style: .reply))
    }

    /// A one-way asynchronous message or callback from `from` to `to`.
    public static func async(from: Participant.ID, to: Participant.ID, _ label: String) -> TraceEvent {
        TraceEvent(.message(from: from, to: to, label: label, style: .async))
    }

    /// A note on `participant`'s lifeline; a diagram wraps its text.
    public static func note(over participant: Participant.ID, _ text: String) -> TraceEvent {
        TraceEvent(.note(over: participant, text: text))
    }

    /// `launcher` (a caller or parent operation) launches `operation`, labelled e.g.
    /// `launch(phone)`.
    public static func launch(
        _ operation: Participant.ID, by launcher: Participant.ID, _ label: String
    ) -> TraceEvent {
        TraceEvent(.launch(operation, by: launcher, label: label))
    }

    /// `operation` finishes back to `launcher`, labelled e.g. `onFinish(tok…a1f3)`.
    public static func finish(
        _ operation: Participant.ID, to launcher: Participant.ID, _ label: String
    ) -> TraceEvent {
        TraceEvent(.finish(operation, to: launcher, label: label))
    }

    /// `opener` opens a frame of `kind` labelled with why, e.g. `retry 2 of 3: HTTP 503`.
    public static func openFrame(_ kind: FrameKind, _ label: String, by opener: Participant.ID) -> TraceEvent {
        TraceEvent(.frameOpen(kind, label: label, by: opener))
    }

    /// The next branch (`else`) of the innermost open ``FrameKind/alt`` frame, labelled with its
    /// condition.
    public static func branch(_ label: String) -> TraceEvent {
        TraceEvent(.frameBranch(label: label))
    }

    /// The innermost open frame closes.
    public static let closeFrame = TraceEvent(.frameClose)

    /// A labelled rule across the whole diagram (``Kind/divider(label:)``), e.g.
    /// `AuthScenario: rerun 1 (session 2 of 2)`.
    public static func divider(_ label: String) -> TraceEvent {
        TraceEvent(.divider(label: label))
    }
}
