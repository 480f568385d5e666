public import Dispatch
import Synchronization

/// A question an operation puts to a person through a screen, answered once.
///
/// An operation that needs the person (the phone number, another card) makes a prompt for its
/// launch and hands it to its screen; the screen shows the question and calls ``answer(_:)``
/// when the person answers. The prompt keeps the rules every screen would otherwise piece
/// together:
///
/// - **Once.** The first answer goes to the operation; a second one (a double tap) is dropped
///   and reported to the environment's ``OpDiagnostics`` as ``OpDiagnostic/Kind/answeredTwice``.
/// - **Off the caller's actor.** The answer is delivered on the prompt's queue, never inline:
///   a `@MainActor` view model that answers returns at once, and the rest of the flow (the next
///   request, the journal's synced line) runs off the main actor. A screen that is on no actor
///   and answers on the asking thread (a terminal, a script in a test, the fault explorer's
///   single thread) may have the answer delivered there instead (`deliverOn: nil`).
/// - **Closed when the launch ends.** When the launch's token is cancelled or its deadline
///   passes, the screen's ``onClose(_:)`` handlers run, so the question disappears with the
///   launch; an answer after that is dropped quietly.
///
/// ```swift
/// func launch(_ context: OpContext<Order>, onFinish: @escaping OnFinish<Card>) {
///     let completion = Completion(retaining: self, context: context, onFinish: onFinish)
///     screen.askForCard(ScreenPrompt(for: context) { completion.finish($0) })
/// }
/// ```
///
/// The ``Completion`` still owns the launch's finish: it finishes with ``OpError/cancelled`` or
/// ``OpError/timedOut`` on its own, and the prompt only tells the screen to go away.
public final class ScreenPrompt<Answer: Sendable>: Sendable {
    /// Why a prompt closed before it was answered.
    public enum CloseReason: Sendable, Hashable, CustomStringConvertible {
        /// The launch was cancelled.
        case cancelled
        /// The launch's deadline passed.
        case timedOut

        /// A sentence for people.
        public var description: String {
            switch self {
            case .cancelled: "cancelled"
            case .timedOut: "timed out"
            }
        }
    }

    private struct State {
        var isOpen = true
        var answered = false
        var closeHandlers: [@Sendable (CloseReason) -> Void] = []
        var closedBecause: CloseReason?
        var registration: CancellationRegistration?
        var timer: (any ScheduledWork)?
        /// Whether the run was told it is parked on this prompt and not yet that it goes on.
        var parked = false
    }

    private let state = Mutex(State())
    private let deliver: @Sendable (Result<Answer, any Error>) -> Void
    /// Where answers go; `nil` delivers on the answering thread.
    private let queue: DispatchQueue?
    private let diagnostics: any OpDiagnostics
    private let operation: String
    /// Told that the run is parked while the prompt is open (``ScenarioObserver/runParked()``).
    private let observer: (any ScenarioObserver)?

    /// Opens a prompt for the launch of `context`, whose token and deadline close it (see
    /// ``init(cancellation:deadline:environment:operation:deliverOn:_:)`` for the rest).
    public convenience init<Input: Sendable>(
        for context: OpContext<Input>, operation: String = "\(Answer.self) prompt",
        deliverOn queue: DispatchQueue? = .global(qos: .userInitiated),
        _ onAnswer: @escaping @Sendable (Result<Answer, any Error>) -> Void
    ) {
        self.init(
            cancellation: context.cancellation, deadline: context.deadline, environment: context.environment,
            operation: operation, deliverOn: queue, onAnswer)
    }

    /// Opens a prompt watched by a token and a deadline of its own: for a failure handler,
    /// which has the step's token (``StepFailureInfo/cancellation``) but no context.
    ///
    /// - Parameters:
    ///   - cancellation: Closes the prompt when cancelled.
    ///   - deadline: Closes the prompt when it passes, by `environment`'s scheduler.
    ///   - environment: Its diagnostics hear of a second answer, its observer of the park.
    ///   - operation: The name diagnostics give the asking operation.
    ///   - queue: Where the answer is delivered; a global queue unless given. `nil` delivers it on
    ///     the thread that answers, for a screen on no actor that answers on the asking thread.
    ///   - onAnswer: Receives the person's answer (or the screen's error) once, on `queue`.
    public init(
        cancellation: CancellationToken?, deadline: ContinuousClock.Instant? = nil,
        environment: OpEnvironment = .default, operation: String = "\(Answer.self) prompt",
        deliverOn queue: DispatchQueue? = .global(qos: .userInitiated),
        _ onAnswer: @escaping @Sendable (Result<Answer, any Error>) -> Void
    ) {
        deliver = onAnswer
        self.queue = queue
        diagnostics = environment.diagnostics
        self.operation = operation
        observer = environment.observer
        // Parked from the start: a close that comes while the prompt is set up goes on again.
        if let observer {
            state.withLock { $0.parked = true }
            observer.runParked()
        }
        let registration = cancellation?.onCancel { [weak self] in self?.close(.cancelled) }
        let timer = deadline.map { deadline in
            environment.scheduler.schedule(at: deadline) { [weak self] in self?.close(.timedOut) }
        }
        let closedAlready = state.withLock { state -> Bool in
            state.registration = registration
            state.timer = timer
            return !state.isOpen
        }
        // A token cancelled before this prompt existed fires its handler at once, inside
        // `onCancel`: the registration and timer stored above are let go of here instead.
        if closedAlready { stopWatching() }
    }

    /// Whether the prompt still waits for an answer.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// The person's answer: delivered to the operation once, on the prompt's queue.
    public func answer(_ value: Answer) {
        respond(.success(value))
    }

    /// The screen could not get an answer (the person backed out): the operation receives
    /// `error` instead, once.
    ///
    /// What the error is decides what the run does. A ``CancellationReason`` (the person closed
    /// the screen, declined the terms) ends the run as cancelled, nothing undone. Any other error
    /// is a failure: if it is one for good, the steps before it that declare a compensation are
    /// undone. When nobody *can* answer now, use ``cannotBeAnswered(because:)`` instead.
    public func decline(_ error: any Error) {
        respond(.failure(error))
    }

    /// Nobody can answer the question now (no terminal and no input given, the app in the
    /// background): the operation receives ``PromptUnanswerable``, once — a cancellation, so
    /// nothing is undone and the run can be rerun with the input. `reason` is for people:
    /// `standard input is not a terminal`.
    public func cannotBeAnswered(because reason: String) {
        respond(.failure(PromptUnanswerable(question: operation, reason: reason)))
    }

    /// Runs `handler` when the launch ends before an answer: cancelled or past its deadline. A
    /// screen dismisses its question here. Called once, on the thread that cancelled or on the
    /// scheduler's; at once when registered after the prompt closed.
    public func onClose(_ handler: @escaping @Sendable (CloseReason) -> Void) {
        let closed = state.withLock { state -> CloseReason? in
            if state.isOpen { state.closeHandlers.append(handler) }
            return state.closedBecause
        }
        if let closed { handler(closed) }
    }

    private func respond(_ result: Result<Answer, any Error>) {
        let outcome = state.withLock { state -> PromptResponse in
            if state.answered { return .twice }
            guard state.isOpen else { return .late }
            state.answered = true
            state.isOpen = false
            state.closeHandlers = []
            return .deliver
        }
        switch outcome {
        case .deliver:
            stopWatching()
            guard let queue else { return deliver(result) }
            let deliver = deliver
            queue.async { deliver(result) }
        case .twice:
            diagnostics.report(OpDiagnostic(kind: .answeredTwice, operation: operation))
        case .late:
            break
        }
    }

    private func close(_ reason: CloseReason) {
        let handlers = state.withLock { state -> [@Sendable (CloseReason) -> Void] in
            guard state.isOpen else { return [] }
            state.isOpen = false
            state.closedBecause = reason
            defer { state.closeHandlers = [] }
            return state.closeHandlers
        }
        stopWatching()
        for handler in handlers { handler(reason) }
    }

    /// Lets go of the token's registration and the deadline's timer once the prompt is done,
    /// and tells the run it goes on, once, before the operation hears the answer or the close.
    private func stopWatching() {
        let (registration, timer, wasParked) = state.withLock { state in
            defer {
                state.registration = nil
                state.timer = nil
                state.parked = false
            }
            return (state.registration, state.timer, state.parked)
        }
        registration?.cancel()
        timer?.cancel()
        if wasParked { observer?.runGoesOn() }
    }
}

/// What becomes of an answer to a ``ScreenPrompt``.
private enum PromptResponse {
    case deliver, twice, late
}
