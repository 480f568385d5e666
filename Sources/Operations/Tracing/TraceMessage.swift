/// One arrow of a trace, as a test states it: who sends what to whom.
///
/// ```swift
/// let expected: [TraceMessage] = [
///     .launch("AuthScenario", "PhoneOp", "launch(phone)"),
///     .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
///     .reply(from: "AuthAPI", to: "PhoneOp", "token"),
///     .finish("PhoneOp", "AuthScenario", "onFinish(tok…a1f3)"),
/// ]
/// ```
public struct TraceMessage: Hashable, Sendable, CustomStringConvertible {
    /// What kind of arrow the message is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A synchronous call.
        case call
        /// A reply to a call.
        case reply
        /// A one-way asynchronous message or callback.
        case async
        /// A context service's creation (`to` is the created service).
        case create
        /// An operation's launch (`to` is the operation).
        case launch
        /// An operation's onFinish (`from` is the operation).
        case finish
    }

    /// The kind of arrow.
    public var kind: Kind
    /// The sender.
    public var from: Participant.ID
    /// The receiver.
    public var to: Participant.ID
    /// The arrow's label.
    public var label: String

    /// Creates a message: an arrow of `kind` from `from` to `to`, labelled `label`.
    public init(_ kind: Kind, from: Participant.ID, to: Participant.ID, label: String) {
        self.kind = kind
        self.from = from
        self.to = to
        self.label = label
    }

    /// One line per message, e.g. `PhoneOp -> AuthAPI: requestCode(phone)`.
    public var description: String {
        let arrow: String
        switch kind {
        case .call: arrow = "->"
        case .reply: arrow = "-->"
        case .async: arrow = "~>"
        case .create: arrow = "-> (create)"
        case .launch: arrow = "=> (launch)"
        case .finish: arrow = "<= (finish)"
        }
        return "\(from) \(arrow) \(to): \(label)"
    }
}

// MARK: - API

extension TraceMessage {
    // The same names, argument order and labels as the ``TraceEvent`` factories, so an expected
    // message reads like the event that records it.

    /// A synchronous call.
    public static func call(from: Participant.ID, to: Participant.ID, _ label: String) -> TraceMessage {
        TraceMessage(.call, from: from, to: to, label: label)
    }

    /// A reply to a call.
    public static func reply(from: Participant.ID, to: Participant.ID, _ label: String) -> TraceMessage {
        TraceMessage(.reply, from: from, to: to, label: label)
    }

    /// A one-way asynchronous message or callback.
    public static func async(from: Participant.ID, to: Participant.ID, _ label: String) -> TraceMessage {
        TraceMessage(.async, from: from, to: to, label: label)
    }

    /// A context service's creation.
    public static func create(
        _ service: Participant.ID, by creator: Participant.ID, _ label: String = "create"
    ) -> TraceMessage {
        TraceMessage(.create, from: creator, to: service, label: label)
    }

    /// An operation's launch.
    public static func launch(
        _ operation: Participant.ID, by launcher: Participant.ID, _ label: String
    ) -> TraceMessage {
        TraceMessage(.launch, from: launcher, to: operation, label: label)
    }

    /// An operation's onFinish.
    public static func finish(
        _ operation: Participant.ID, to launcher: Participant.ID, _ label: String
    ) -> TraceMessage {
        TraceMessage(.finish, from: operation, to: launcher, label: label)
    }
}

extension TraceEvent {
    /// The event as a message, or `nil` for declarations, releases, notes and frames.
    public var message: TraceMessage? {
        switch kind {
        case .declare, .release, .note, .frameOpen, .frameBranch, .frameClose, .divider:
            return nil
        case .create(let service, let creator, let label):
            return .create(service, by: creator, label)
        case .message(let from, let to, let label, let style):
            switch style {
            case .call: return .call(from: from, to: to, label)
            case .reply: return .reply(from: from, to: to, label)
            case .async: return .async(from: from, to: to, label)
            }
        case .launch(let operation, let launcher, let label):
            return .launch(operation, by: launcher, label)
        case .finish(let operation, let launcher, let label):
            return .finish(operation, to: launcher, label)
        }
    }
}

extension Trace {
    /// Every arrow of the trace, in order.
    public var messages: [TraceMessage] { events.compactMap(\.message) }
}
