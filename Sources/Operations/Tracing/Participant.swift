/// One lifeline of a message diagram: the operation itself, a service it talks to, or the caller
/// that launched it.
///
/// A participant is a value: two traces that name the same participant use equal values. Its
/// ``id`` is what events refer to, so it must stay stable for the whole trace; its ``name`` is what
/// diagrams print in the head box.
///
/// ```swift
/// let api = Participant.keyService("AuthAPI")
/// let screen = Participant.contextService("PhoneScreen")
/// ```
public struct Participant: Hashable, Sendable, Codable {
    /// The stable identity events use to refer to a participant.
    ///
    /// Usually the participant's name; two instances of one type (two view models alive at once)
    /// need two identifiers.
    public struct ID: Hashable, Sendable, Comparable, Codable, RawRepresentable,
        ExpressibleByStringLiteral, CustomStringConvertible
    {
        /// The identifier's text, saved in JSON as a plain string.
        public let rawValue: String

        /// Creates an identifier from its text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Creates an identifier from its text.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Creates an identifier from a string literal, so tests can write `"AuthAPI"`.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// The identifier's text.
        public var description: String { rawValue }

        /// Orders identifiers by their text, for stable output.
        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What role a participant plays; it decides how a diagram draws its lifeline.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// Whoever launched the traced operation (a scenario, a test): drawn as the left edge of
        /// the diagram, not as a column.
        case caller
        /// An operation (or scenario): head box at the top, an activation bar from launch to
        /// onFinish.
        case operation
        /// A service injected by a factory that outlives the operation: head box at the top and a
        /// plain lifeline for the whole height.
        case keyService
        /// A service created during a launch and released before it ends: head box on the row
        /// where it is created, an existence bar to its last message, then an X.
        case contextService
    }

    /// The stable identity events refer to.
    public var id: ID
    /// The text printed in the participant's head box.
    public var name: String
    /// The participant's role.
    public var kind: Kind

    /// Creates a participant: its identity `id`, the `name` in its head box, and its role.
    public init(id: ID, name: String, kind: Kind) {
        self.id = id
        self.name = name
        self.kind = kind
    }

    /// An operation participant, e.g. `PhoneOp`, identified by its name unless given a distinct
    /// `id` (one name used twice).
    public static func operation(_ name: String, id: ID? = nil) -> Participant {
        Participant(id: id ?? ID(name), name: name, kind: .operation)
    }

    /// A key-service participant, e.g. `AuthAPI`, identified by its name unless given `id`.
    public static func keyService(_ name: String, id: ID? = nil) -> Participant {
        Participant(id: id ?? ID(name), name: name, kind: .keyService)
    }

    /// A context-service participant, e.g. `PhoneViewModel`, identified by its name unless given
    /// `id`.
    public static func contextService(_ name: String, id: ID? = nil) -> Participant {
        Participant(id: id ?? ID(name), name: name, kind: .contextService)
    }

    /// The caller participant: the left edge launches come from and onFinish returns to. Only
    /// exports that cannot draw an edge (Mermaid) print its `name`; `id` defaults to the name.
    public static func caller(_ name: String = "Caller", id: ID? = nil) -> Participant {
        Participant(id: id ?? ID(name), name: name, kind: .caller)
    }
}
