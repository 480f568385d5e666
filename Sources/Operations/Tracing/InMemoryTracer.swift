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

    private let state = LockedState(State())

    /// Creates an empty tracer.
    public init() {}

    /// Appends an event under the lock.
    public func record(_ event: consuming TraceEvent) {
        let event = event
        state.withLock { state in
            if case .declare(let participant) = event.kind {
                if state.declared[participant.id] == participant { return }
                if state.declared[participant.id] == nil { state.declared[participant.id] = participant }
            }
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
