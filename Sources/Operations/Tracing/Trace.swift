/// Everything recorded while an operation ran: its participants and its events, in order.
///
/// A trace is a plain value: build one by hand in a test, take one from an ``InMemoryTracer``,
/// or read one from a file (`OperationsRunner`'s `FileTracer` writes them), then render it with
/// `TextDiagramRenderer`, `PlantUMLRenderer` or `MermaidRenderer`.
///
/// ```swift
/// let trace = Trace(events: [
///     .declare(.operation("PhoneOp")),
///     .declare(.keyService("AuthAPI")),
///     .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
///     .reply(from: "AuthAPI", to: "PhoneOp", "token"),
/// ])
/// ```
public struct Trace: Hashable, Sendable {
    /// The JSON format version this build writes and reads.
    public static let formatVersion = 1

    /// The declared participants, in order of declaration (the first declaration of each
    /// identifier wins; validation reports a conflicting one).
    public private(set) var participants: [Participant]
    /// The events, in the order they were recorded.
    public private(set) var events: [TraceEvent]

    /// Creates a trace from events, in order; participants are taken from its declarations.
    public init(events: [TraceEvent] = []) {
        self.participants = []
        self.events = []
        self.events.reserveCapacity(events.count)
        for event in events { append(event) }
    }

    /// Appends an event, registering its participant if it is a first declaration.
    public mutating func append(_ event: TraceEvent) {
        if case .declare(let participant) = event.kind,
            !participants.contains(where: { $0.id == participant.id })
        {
            participants.append(participant)
        }
        events.append(event)
    }
}
