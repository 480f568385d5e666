/// Receives the events of a traced run, one at a time.
///
/// The engine calls ``record(_:)`` from whatever thread the operation runs on, including the
/// threads completion handlers arrive on. A conformer must therefore:
///
/// - accept calls from any thread at once without losing or tearing an event;
/// - keep the events of one thread in the order that thread recorded them (events of different
///   threads are ordered by when each call took effect);
/// - return quickly and never call back into the operation being traced.
///
/// Operation code does not call a tracer directly: it records through a ``TraceScope``, which
/// builds nothing when tracing is off. ``InMemoryTracer`` is the conformer tests and the CLI use.
public protocol Tracer: Sendable {
    /// Records one event, handed over (`consuming`), with any secret already redacted in its
    /// labels.
    func record(_ event: consuming TraceEvent)
}
