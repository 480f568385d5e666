import Operations

/// The left-to-right order of a diagram's lifelines.
public enum ParticipantOrder: Hashable, Sendable {
    /// In order of first use (the first event that involves each participant), so lifelines read
    /// in the order the story unfolds; declared participants that are never used come last, in
    /// declaration order. The default, and the order of the hand-drawn target.
    case firstUse
    /// In order of declaration.
    ///
    /// Mermaid places participants by first appearance, so with this order its export keeps the
    /// columns only by declaring every participant up front and drawing creations as plain
    /// messages (see ``MermaidRenderer``).
    case declaration
}
