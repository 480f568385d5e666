import Synchronization

/// The check a scenario's chain makes at each step boundary; `nil` in a launch of a scenario
/// built without an inbox, so a scenario that takes no events pays one `nil` check per step.
protocol BoundaryGate: AnyObject, Sendable {
    /// Hands the waiting events to the handler, then calls `proceed` — or ends the run through
    /// the launch's completion when the handler says so.
    func pass(before nextStep: String?, in run: ScenarioRun, proceed: @escaping @Sendable () -> Void)
}

/// An inbox and its handler: a scenario's way of taking events from outside.
final class EventGate<Event: Sendable>: BoundaryGate {
    private let inbox: EventInbox<Event>
    private let handler: EventHandler<Event>

    init(inbox: EventInbox<Event>, handler: @escaping EventHandler<Event>) {
        self.inbox = inbox
        self.handler = handler
    }

    func pass(before nextStep: String?, in run: ScenarioRun, proceed: @escaping @Sendable () -> Void) {
        // The common case: nothing waiting, the chain goes straight on. A
        // launch that has already finished (cancelled, timed out) leaves the events for the
        // next run rather than reacting on behalf of a run nobody waits for.
        guard !inbox.isEmpty, !run.ending.isFinished else { return proceed() }
        let boundary = StepBoundary(scenario: run.name, nextStep: nextStep, context: run.boundaryContext)
        EventRound(
            events: inbox.takeAll(), boundary: boundary, handler: handler, inbox: inbox, ending: run.ending,
            proceed: proceed
        ).run(from: 0)
    }
}

/// One boundary's events, handed to the handler one at a time, each after the reaction to the
/// one before. A handler that reacts before it returns is followed by a loop, not by a nested
/// call, so any number of events takes constant stack depth; one that reacts later, from
/// another thread, resumes the loop there.
private final class EventRound<Event: Sendable>: Sendable {
    private let events: [Event]
    private let boundary: StepBoundary
    private let handler: EventHandler<Event>
    private let inbox: EventInbox<Event>
    private let ending: any ScenarioEnding
    private let proceed: @Sendable () -> Void
    /// The events postponed so far; only the loop touches it, one step at a time.
    private let postponed = Mutex<[Event]>([])

    init(
        events: [Event], boundary: StepBoundary, handler: @escaping EventHandler<Event>, inbox: EventInbox<Event>,
        ending: any ScenarioEnding, proceed: @escaping @Sendable () -> Void
    ) {
        self.events = events
        self.boundary = boundary
        self.handler = handler
        self.inbox = inbox
        self.ending = ending
        self.proceed = proceed
    }

    /// Where one event's reaction stands: the handler has not returned yet, it returned without
    /// reacting (the reaction will resume the loop), or the reaction came first.
    private enum Slot {
        case pending
        case returned
        case reacted(EventReaction)
    }

    func run(from start: Int) {
        var index = start
        while index < events.count {
            let event = events[index]
            if let trace = boundary.context.trace, trace.isEnabled {
                trace.note("event \(TraceLabel.describe(event) ?? String(describing: event)) \(boundary)")
            }
            let slot = Mutex(Slot.pending)
            let once = OnceFlag()
            let next = index + 1
            handler(event, boundary) { reaction in
                guard once.claim() else { return }
                let returned = slot.withLock { state -> Bool in
                    if case .returned = state { return true }
                    state = .reacted(reaction)
                    return false
                }
                // The handler returned before reacting: the loop ended there; go on from here.
                if returned, self.apply(reaction, to: event) { self.run(from: next) }
            }
            let reaction = slot.withLock { state -> EventReaction? in
                if case .reacted(let reaction) = state { return reaction }
                state = .returned
                return nil
            }
            guard let reaction else { return }
            guard apply(reaction, to: event) else { return }
            index = next
        }
        inbox.putBack(postponed.withLock { $0 })
        proceed()
    }

    /// Applies a reaction; whether the round goes on to the next event.
    private func apply(_ reaction: EventReaction, to event: Event) -> Bool {
        switch reaction {
        case .proceed:
            return true
        case .postpone:
            postponed.withLock { $0.append(event) }
            return true
        case .end(let error):
            inbox.putBack(postponed.withLock { $0 })
            ending.fail(error)
            return false
        }
    }
}
