/// What a frame around a run of messages says about them — the combined fragments readers of
/// sequence diagrams know from UML, PlantUML and Mermaid.
///
/// The engine opens frames where it knows why something happens (see ``TraceEvent/Kind/frameOpen(_:label:by:)``):
/// a step's retry attempt is a `loop`, a failure handler's relaunch a `loop` with the handler's
/// reason, a conditional step that runs an `opt`, a nested scenario a `group`. An operation can
/// open its own through ``TraceScope/openFrame(_:_:)``.
public enum FrameKind: String, CaseIterable, Codable, Hashable, Sendable {
    /// Messages that repeat: a retry, a person asked again.
    case loop
    /// Alternatives: the first branch ran because of its label; ``TraceEvent/Kind/frameBranch(label:)``
    /// starts each `else`.
    case alt
    /// Messages that ran only because a condition held.
    case opt
    /// Messages that belong together, e.g. a nested scenario.
    case group
    /// Branches that ran at the same time, e.g. a parallel step's: each branch's messages are
    /// drawn together, and ``TraceEvent/Kind/frameBranch(label:)`` starts each next one.
    case par

    /// Whether the frame is divided into branches (``TraceEvent/Kind/frameBranch(label:)``).
    public var hasBranches: Bool { self == .alt || self == .par }
}
