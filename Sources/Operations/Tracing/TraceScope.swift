/// The recording handle operation code uses: an optional tracer plus the participant the code
/// speaks for.
///
/// The engine puts a scope into every launch context. When an operation is launched it calls
/// ``launch(_:_:)`` on the launcher's scope, which records the launch and returns the child's
/// scope; when the operation finishes it calls ``finish(_:)`` on that child scope. Operation code
/// records its own messages through the scope it was given:
///
/// ```swift
/// let screen = trace.create(.contextService("PhoneScreen"))
/// trace.message(to: api, "requestCode(\(phone))")
/// api.requestCode(phone) { token in
///     trace.scope(for: api).reply(to: trace.participant, "\(token)")  // token is Redactable
/// }
/// ```
///
/// With tracing off (``tracer`` is `nil`) every method returns at once and its labels
/// (`@autoclosure`s) are never evaluated. A scope is a `Sendable` value; copy it freely.
public struct TraceScope: Sendable {
    /// Where events go, or `nil` when tracing is off.
    public var tracer: (any Tracer)? { sink?.tracer }
    /// The tracer behind one reference: scopes made from this one share it.
    private let sink: TracerSink?
    /// The participant this scope records for: the sender of its messages.
    public let participant: Participant
    /// Who launched this scope's operation; ``finish(_:)`` reports to it.
    public let launcherID: Participant.ID?

    /// A scope that records nothing.
    public static let disabled = TraceScope(
        tracer: nil, participant: Participant(id: "", name: "", kind: .caller), launcherID: nil)

    /// Creates a scope recording into `tracer` (nothing when `nil`) for `participant`, launched
    /// by `launcherID` when it is a launched operation.
    public init(tracer: (any Tracer)?, participant: Participant, launcherID: Participant.ID? = nil) {
        self.init(sink: tracer.map(TracerSink.init), participant: participant, launcherID: launcherID)
    }

    private init(sink: TracerSink?, participant: Participant, launcherID: Participant.ID? = nil) {
        self.sink = sink
        self.participant = participant
        self.launcherID = launcherID
    }

    /// The scope for the top of a traced run: it declares `caller` (the diagram's left edge,
    /// the scenario or test that launches) and records for it into `tracer`. Launch the
    /// outermost operation from this scope.
    public static func root(_ tracer: (any Tracer)?, caller: Participant = .caller()) -> TraceScope {
        let scope = TraceScope(tracer: tracer, participant: caller)
        scope.sink?.declare(caller)
        return scope
    }

    /// Whether events are recorded; check it before computing something expensive that is not a
    /// label (labels are already lazy).
    public var isEnabled: Bool { sink != nil }
}

// MARK: - API

extension TraceScope {
    /// Declares a participant (a key service before its first message, typically); built only
    /// when tracing is on.
    public func declare(_ participant: @autoclosure () -> Participant) {
        sink?.declare(participant())
    }

    /// Records a synchronous call from this scope's participant to `target`.
    ///
    /// A target never declared before (a key service the operation did not declare) is
    /// declared here, as by every message below, so a trace made of messages alone can always
    /// be drawn. Labels here and below are evaluated only when tracing is on.
    public func message(to target: Participant, _ label: @autoclosure () -> String) {
        sink?.record(declaring: target) { .call(from: participant.id, to: target.id, label()) }
    }

    /// Records a reply from this scope's participant to `target`, whose call it answers (or who
    /// created it).
    public func reply(to target: Participant, _ label: @autoclosure () -> String) {
        sink?.record(declaring: target) { .reply(from: participant.id, to: target.id, label()) }
    }

    /// Records a one-way asynchronous message or callback from this scope's participant.
    public func async(to target: Participant, _ label: @autoclosure () -> String) {
        sink?.record(declaring: target) { .async(from: participant.id, to: target.id, label()) }
    }

    /// Records a note on this scope's participant's lifeline.
    public func note(_ text: @autoclosure () -> String) {
        sink?.tracer.record(.note(over: participant.id, text()))
    }

    /// Records that this scope's participant creates the context service `service`, declaring
    /// it, and returns a scope recording for it (disabled when tracing is off).
    @discardableResult
    public func create(
        _ service: @autoclosure () -> Participant, _ label: @autoclosure () -> String = "create"
    ) -> TraceScope {
        guard let sink else { return .disabled }
        let service = service()
        sink.declare(service)
        sink.tracer.record(.create(service.id, by: participant.id, label()))
        return TraceScope(sink: sink, participant: service)
    }

    /// Records that this scope's participant releases a context service it created.
    public func release(_ service: Participant) {
        sink?.tracer.record(.release(service.id))
    }

    /// Records that this scope's participant launches `operation`, declaring it, with an arrow
    /// such as `launch(phone)`; the engine calls this when it launches. Returns the scope for
    /// the operation's launch context, whose ``finish(_:)`` reports back to this participant.
    public func launch(
        _ operation: @autoclosure () -> Participant, _ label: @autoclosure () -> String
    ) -> TraceScope {
        guard let sink else { return .disabled }
        let operation = sink.started(operation())
        sink.declare(operation)
        sink.tracer.record(.launch(operation.id, by: participant.id, label()))
        return TraceScope(sink: sink, participant: operation, launcherID: participant.id)
    }

    /// Records that this scope's operation finishes back to its launcher, e.g.
    /// `onFinish(\(token))`; the engine calls this once, when it delivers onFinish. A scope that
    /// was not made by ``launch(_:_:)`` records nothing.
    public func finish(_ label: @autoclosure () -> String) {
        guard let sink, let launcherID else { return }
        sink.finished(participant.id)
        sink.tracer.record(.finish(participant.id, to: launcherID, label()))
    }

    /// Records a reply from `service` (a key service answering a call) to this scope's
    /// participant.
    public func reply(from service: Participant, _ label: @autoclosure () -> String) {
        sink?.record(declaring: service) { .reply(from: service.id, to: participant.id, label()) }
    }

    /// Records an asynchronous callback from `service` (a screen reporting an event) to this
    /// scope's participant.
    public func callback(from service: Participant, _ label: @autoclosure () -> String) {
        sink?.record(declaring: service) { .async(from: service.id, to: participant.id, label()) }
    }

    /// Opens a frame around the events that follow, on behalf of this scope's participant:
    /// what an operation does to say "these messages repeat" (``FrameKind/loop``), "these are
    /// alternatives" (``FrameKind/alt``), "this ran only because…" (``FrameKind/opt``) or "these
    /// belong together" (``FrameKind/group``). Close it with ``closeFrame()`` once its last event
    /// is recorded; frames nest.
    ///
    /// ```swift
    /// trace.openFrame(.loop, "poll until the payment settles")
    /// // … the polling calls …
    /// trace.closeFrame()
    /// ```
    public func openFrame(_ kind: FrameKind, _ label: @autoclosure () -> String) {
        sink?.tracer.record(.openFrame(kind, label(), by: participant.id))
    }

    /// Starts the next branch of the innermost open ``FrameKind/alt`` frame (`else`) or
    /// ``FrameKind/par`` frame (`and`), labelled with its condition.
    public func nextBranch(_ label: @autoclosure () -> String) {
        sink?.tracer.record(.branch(label()))
    }

    /// Closes the innermost open frame.
    public func closeFrame() {
        sink?.tracer.record(.closeFrame)
    }

    /// A scope recording for another participant into the same tracer, e.g. for a service's
    /// reply or callback.
    public func scope(for participant: Participant) -> TraceScope {
        TraceScope(sink: sink, participant: participant)
    }
}

/// The tracer every scope of a traced run shares, with the participants declared so far and the
/// operations running now.
private final class TracerSink: Sendable {
    let tracer: any Tracer
    private let declared = LockedState(Set<Participant.ID>())
    /// One entry per launch not finished yet.
    private let running = LockedState([Participant.ID]())

    init(_ tracer: any Tracer) {
        self.tracer = tracer
    }

    /// Records a declaration, even a repeated one (a context service created again).
    func declare(_ participant: Participant) {
        declared.withLock { _ = $0.insert(participant.id) }
        tracer.record(.declare(participant))
    }

    /// `operation`, or while one with its id still runs (a one-step scenario named after its
    /// operation, as `opctl run SignOutOp` is) the same name as `ID#2` (`#3`, …): one lifeline
    /// cannot be launched inside its own launch and still be drawn.
    func started(_ operation: Participant) -> Participant {
        running.withLock { running in
            var launched = operation
            var number = 2
            while running.contains(launched.id) {
                launched.id = Participant.ID("\(operation.id.rawValue)#\(number)")
                number += 1
            }
            running.append(launched.id)
            return launched
        }
    }

    func finished(_ id: Participant.ID) {
        running.withLock { running in
            if let index = running.lastIndex(of: id) { running.remove(at: index) }
        }
    }

    /// Records `event`, declaring `participant` first unless it already was.
    func record(declaring participant: Participant, _ event: () -> TraceEvent) {
        if declared.withLock({ $0.insert(participant.id).inserted }) {
            tracer.record(.declare(participant))
        }
        tracer.record(event())
    }
}
