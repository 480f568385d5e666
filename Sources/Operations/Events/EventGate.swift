import Synchronization

/// The check a scenario's chain makes at each step boundary; `nil` for a scenario built without
/// an inbox.
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
        // A launch that has already finished (cancelled, timed out) leaves the events for the
        // next run rather than reacting on behalf of a run nobody waits for.
        guard !inbox.isEmpty, !run.ending.isFinished else { return proceed() }
        EventRound(
            events: inbox.takeAll(), run: run, nextStep: nextStep, handler: handler, inbox: inbox, proceed: proceed
        ).run(from: 0)
    }
}

/// One boundary's events, handed to the handler one at a time, each after the reaction to the
/// one before. A handler that reacts before it returns is followed by a loop, not by a nested
/// call, so any number of events takes constant stack depth; one that reacts later, from
/// another thread, resumes the loop there.
private final class EventRound<Event: Sendable>: Sendable {
    private let events: [Event]
    private let run: ScenarioRun
    private let nextStep: String?
    private let handler: EventHandler<Event>
    private let inbox: EventInbox<Event>
    private let proceed: @Sendable () -> Void
    /// The events postponed so far; only the loop touches it, one step at a time.
    private let postponed = Mutex<[Event]>([])

    init(
        events: [Event], run: ScenarioRun, nextStep: String?, handler: @escaping EventHandler<Event>,
        inbox: EventInbox<Event>, proceed: @escaping @Sendable () -> Void
    ) {
        self.events = events
        self.run = run
        self.nextStep = nextStep
        self.handler = handler
        self.inbox = inbox
        self.proceed = proceed
    }

    /// The boundary one event is handed over at. In an observed run each event's reaction gets
    /// a recorder of its own, so the run's observers hear what that reaction launched.
    private func boundary(recording recorder: ReactionRecorder?) -> StepBoundary {
        StepBoundary(scenario: run.name, nextStep: nextStep, context: run.boundaryContext(observer: recorder))
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
            let recorder = run.environment.observer.map(ReactionRecorder.init(run:))
            let boundary = boundary(recording: recorder)
            if let trace = boundary.context.trace, trace.isEnabled {
                trace.note("event \(Self.label(event)) \(boundary)")
            }
            let slot = Mutex(Slot.pending)
            let once = OnceFlag()
            let next = index + 1
            handler(event, boundary) { reaction in
                guard once.claim() else { return }
                if let recorder { self.report(reaction, to: event, launched: recorder.launched) }
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

    private static func label(_ event: Event) -> String {
        TraceLabel.describe(event) ?? String(describing: event)
    }

    /// Tells the run's observers the event was handled, before the reaction takes effect: a
    /// journal then holds it before the next step's launch, or the run's end.
    private func report(_ reaction: EventReaction, to event: Event, launched: [HandledEvent.Launch]) {
        let words: HandledEvent.Reaction =
            switch reaction {
            case .proceed: .proceeded
            case .postpone: .postponed
            case .end(let error): .ended(TraceLabel.describe(error) ?? "\(error)")
            }
        let handled = HandledEvent(event: Self.label(event), nextStep: nextStep, reaction: words, launched: launched)
        run.report(.eventHandled(handled), address: run.base)
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
            run.ending.fail(error)
            return false
        }
    }
}
