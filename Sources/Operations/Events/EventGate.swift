/// The check a scenario's chain makes at each step boundary; `nil` in a launch of a scenario
/// built without an inbox, so a scenario that takes no events pays one `nil` check per step.
@usableFromInline
protocol BoundaryGate: AnyObject, Sendable {
    /// Hands the waiting events to the handler, then calls `proceed` — or ends the run through
    /// `ending` when the handler says so.
    func pass<Input: Sendable>(
        before nextStep: String?, in launch: ChainLaunch<Input>, proceed: @escaping @Sendable () -> Void)
}

/// An inbox and its handler: a scenario's way of taking events from outside.
final class EventGate<Event: Sendable>: BoundaryGate {
    private let inbox: EventInbox<Event>
    private let handler: EventHandler<Event>

    init(inbox: EventInbox<Event>, handler: @escaping EventHandler<Event>) {
        self.inbox = inbox
        self.handler = handler
    }

    func pass<Input: Sendable>(
        before nextStep: String?, in launch: ChainLaunch<Input>, proceed: @escaping @Sendable () -> Void
    ) {
        // The common case: nothing waiting, nothing allocated, the chain goes straight on.
        guard !inbox.isEmpty else { return proceed() }
        let boundary = StepBoundary(scenario: launch.run.name, nextStep: nextStep, context: launch.boundaryContext)
        handle(inbox.takeAll()[...], postponed: [], at: boundary, ending: launch.completion, proceed: proceed)
    }

    /// Hands the events over one at a time, each after the reaction to the one before; the
    /// postponed ones go back to the inbox before the run goes on.
    private func handle(
        _ events: ArraySlice<Event>, postponed: [Event], at boundary: StepBoundary, ending: any ScenarioEnding,
        proceed: @escaping @Sendable () -> Void
    ) {
        guard let event = events.first else {
            inbox.putBack(postponed)
            return proceed()
        }
        if let trace = boundary.context.trace, trace.isEnabled {
            trace.note("event \(TraceLabel.describe(event) ?? String(describing: event)) \(boundary)")
        }
        let rest = events.dropFirst()
        let once = OnceFlag()
        handler(event, boundary) { reaction in
            guard once.claim() else { return }
            switch reaction {
            case .proceed: self.handle(rest, postponed: postponed, at: boundary, ending: ending, proceed: proceed)
            case .postpone:
                self.handle(rest, postponed: postponed + [event], at: boundary, ending: ending, proceed: proceed)
            case .end(let error):
                self.inbox.putBack(postponed)
                ending.fail(error)
            }
        }
    }
}
