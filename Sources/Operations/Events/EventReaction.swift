/// What a scenario does after its handler reacted to an event from outside.
public enum EventReaction: Sendable {
    /// Go on: launch the next step (or finish) as if nothing had arrived.
    case proceed
    /// End the run here with `error`: the next step is not launched. A ``CancellationReason``
    /// ends it as cancelled (signed out on another device); any other error as failed.
    case end(any Error)
    /// Keep the event for the next boundary (of this run, or of the next launch when this is
    /// the end) and go on: the reaction belongs after steps still ahead, e.g. once the run's
    /// own check of the same thing is done.
    case postpone
}

/// Reacts to one event at a step boundary, possibly asynchronously (after launching an
/// operation of its own with ``StepBoundary/context``), and calls `react` exactly once.
///
/// The run waits at the boundary until it does; the events waiting there are handed over one
/// at a time, oldest first, and an ``EventReaction/end(_:)`` drops those after it.
public typealias EventHandler<Event: Sendable> =
    @Sendable (_ event: Event, _ boundary: StepBoundary, _ react: @escaping @Sendable (EventReaction) -> Void) -> Void
