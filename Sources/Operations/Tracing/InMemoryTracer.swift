/// A thread-safe tracer that keeps every event in memory, in the order the calls took effect.
///
/// ```swift
/// let tracer = InMemoryTracer()
/// let root = TraceScope.root(tracer)
/// // ... launch an operation with `root` in its context ...
/// let diagram = try TextDiagramRenderer().render(tracer.trace)
/// ```
///
/// A repeated declaration of an identical participant (a context service created again on a
/// retry) is not stored twice, so the trace stays as small as the run was.
public final class InMemoryTracer: Tracer {
    private struct State {
        var trace = Trace()
        var declared: [Participant.ID: Participant] = [:]
    }

    // A class (not a struct) because every scope recording into it must share one buffer.
    private let state = LockedState(State())

    /// Creates an empty tracer.
    public init() {}

    /// Appends an event under the lock.
    /// - Parameter event: The event to keep.
    public func record(_ event: consuming TraceEvent) {
        guard case .declare = event.kind else {
            // Messages, launches and finishes, nearly every event: appended as they are. (The
            // case is tested without binding its payload, which would copy the event's kind.)
            // The event is moved in through an optional the lock's closure takes it out of: a
            // closure cannot consume what it captures, and a copy retains every string in it.
            var handedOver = Optional(consume event)
            state.withLock { $0.trace.appendUndeclaring(handedOver.take()!) }
            return
        }
        guard case .declare(let participant) = event.kind else { return }
        state.withLock { state in
            if state.declared[participant.id] == participant { return }
            if state.declared[participant.id] == nil { state.declared[participant.id] = participant }
            state.trace.append(event)
        }
    }

    /// A snapshot of everything recorded so far.
    public var trace: Trace {
        state.withLock { $0.trace }
    }

    /// Forgets every recorded event, e.g. between two runs of a benchmark.
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}
