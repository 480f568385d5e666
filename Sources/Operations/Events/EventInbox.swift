import Synchronization

/// Where events from outside a running scenario wait for it: a push saying the terms changed,
/// a session ended on another device, the app going to the background.
///
/// The app posts; a run of a scenario built with the inbox (``Scenario/init(_:version:events:onEvent:_:)``)
/// takes what is waiting at its next step boundary — before a step launches, and before it
/// finishes — and hands each event to its handler. A step in flight is never interrupted: an
/// operation is indivisible, so its side effects are complete (or keyed) before anything reacts.
/// Nothing moves through shared state: each event is a value, taken once, by one run's
/// boundary. A handler that ends the run drops the events after it at that boundary; postponed
/// ones go back to the inbox.
///
/// An event posted while no run is at a boundary waits for the next one, of this run or of the
/// next launch: a change that happened while the app was idle still reaches a handler.
///
/// ```swift
/// let events = EventInbox<AppEvent>()
/// let app = Scenario<Void, Outcome>("App", events: events, onEvent: react) { chain in … }
/// events.post(.termsChanged)    // from a push handler, on any thread
/// ```
public final class EventInbox<Event: Sendable>: Sendable {
    private let waiting = Mutex<[Event]>([])

    /// Creates an empty inbox.
    public init() {}

    /// Leaves `event` for the next step boundary; safe from any thread.
    public func post(_ event: Event) {
        waiting.withLock { $0.append(event) }
    }

    /// The events waiting, oldest first; the inbox is empty afterwards.
    func takeAll() -> [Event] {
        waiting.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }

    /// Puts events back in front of those posted meanwhile: postponed ones keep their turn.
    func putBack(_ events: [Event]) {
        guard !events.isEmpty else { return }
        waiting.withLock { $0.insert(contentsOf: events, at: 0) }
    }

    var isEmpty: Bool { waiting.withLock { $0.isEmpty } }
}
