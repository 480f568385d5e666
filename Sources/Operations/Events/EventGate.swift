import Synchronization

/// The check a scenario's chain makes at each step boundary: hands the waiting events to the
/// handler, then calls `proceed`, or ends the run through the launch's completion.
typealias BoundaryGate =
    @Sendable (_ nextStep: String?, _ run: ScenarioRun, _ proceed: @escaping @Sendable () -> Void) -> Void

/// The gate of a scenario that takes events from `inbox` and hands them to `handler`.
func eventGate<Event: Sendable>(_ inbox: EventInbox<Event>, _ handler: @escaping EventHandler<Event>) -> BoundaryGate {
    { nextStep, run, proceed in
        // A launch that has already finished (cancelled, timed out) leaves the events for the
        // next run rather than reacting on behalf of a run nobody waits for.
        guard !inbox.isEmpty, !run.ending.isFinished else { return proceed() }
        EventRound(
            events: inbox.takeAll(), run: run, nextStep: nextStep, inbox: inbox, handler: handler, proceed: proceed
        ).run(from: 0)
    }
}

/// One boundary's events, handed to the handler one at a time in a loop (constant stack depth);
/// a reaction that comes after the handler returned resumes the loop on its thread.
private final class EventRound<Event: Sendable>: Sendable {
    private let events: [Event]
    private let run: ScenarioRun
    private let nextStep: String?
    private let inbox: EventInbox<Event>
    private let handler: EventHandler<Event>
    private let proceed: @Sendable () -> Void
    private let postponed = Mutex<[Event]>([])

    init(
        events: [Event], run: ScenarioRun, nextStep: String?, inbox: EventInbox<Event>,
        handler: @escaping EventHandler<Event>, proceed: @escaping @Sendable () -> Void
    ) {
        self.events = events
        self.run = run
        self.nextStep = nextStep
        self.inbox = inbox
        self.handler = handler
        self.proceed = proceed
    }

    /// Whether the handler returned before its reaction came, or the reaction first.
    private enum Slot {
        case pending
        case returned
        case reacted(EventReaction)
    }

    func run(from start: Int) {
        var index = start
        while index < events.count {
            let event = events[index]
            // In an observed run each reaction gets a recorder, for the observers to hear of.
            let recorder = run.environment.observer.map(ReactionRecorder.init(run:))
            let boundary = StepBoundary(
                scenario: run.name, nextStep: nextStep, context: run.boundaryContext(observer: recorder))
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

    /// Told before the reaction takes effect, so a journal holds it before what follows.
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

    /// Whether the round goes on to the next event.
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
