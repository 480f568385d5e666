/// Something that happened in a scenario run, reported to the ``ScenarioObserver``.
///
/// Events carry the values passing between steps as `any Sendable` so an observer can journal
/// them (see ``StepReplaying``); a progress printer ignores them.
public struct ScenarioEvent: Sendable {
    /// The kinds of event.
    public enum Kind: Sendable {
        /// The scenario was launched with ``ScenarioEvent/value`` as its input.
        case scenarioStarted
        /// An attempt of the step was launched with ``ScenarioEvent/value`` as its input.
        case stepLaunched
        /// The step finished with ``ScenarioEvent/value`` as its output.
        case stepSucceeded
        /// An attempt failed; `willRetry`: the policy launches it again after `delay`.
        case stepFailed(any Error, willRetry: Bool, delay: Duration?)
        /// The step's condition was false; its input passed on unchanged.
        case stepSkipped
        /// The step's output (``ScenarioEvent/value``) came from an earlier run, not a launch.
        case stepReplayed
        /// The scenario finished with ``ScenarioEvent/value`` as its output.
        case scenarioSucceeded
        /// The scenario finished with an error (a ``StepFailure``, or a cancellation).
        case scenarioFailed(any Error)
        /// The step at ``ScenarioEvent/address`` failed for good with this error, and the
        /// scenario undoes the steps it finished, last first (``Step/compensated(by:input:)``);
        /// a rerun goes on undoing instead of trying the step again.
        case compensationStarted(any Error)
        /// The polled step at ``ScenarioEvent/address`` begins polling, or a poll answered "not
        /// done" and it waits for the next: reported before the wait begins, so that a rerun
        /// waits only what is left and counts on (``StepReplaying/pollProgress(at:)``).
        case polling(PollProgress)
        /// The scenario's handler took an event from outside at a step boundary and reacted,
        /// launching what ``HandledEvent/launched`` lists; reported at the scenario's address.
        case eventHandled(HandledEvent)
    }

    /// What happened.
    public let kind: Kind
    /// The scenario's name.
    public let scenario: String
    /// The step concerned; for scenario events, the scenario's own address (empty at the top).
    public let address: StepAddress
    /// The attempt, from 1; 0 for scenario events.
    public let attempt: Int
    /// Time since the step's attempt (or the scenario) was launched, for finishing events.
    public let duration: Duration?
    /// The input or output involved, when the kind says there is one.
    public let value: (any Sendable)?
    /// For ``Kind/stepLaunched``: the step's purity, which says what an attempt left in doubt
    /// means on resume.
    public let purity: Purity?
    /// For ``Kind/stepLaunched`` of a step with side effects: the attempt's key, which a journal
    /// makes durable before the operation launches.
    public let idempotencyKey: IdempotencyKey?

    /// Creates an event.
    public init(
        kind: Kind, scenario: String, address: StepAddress, attempt: Int, duration: Duration?,
        value: (any Sendable)?, purity: Purity? = nil, idempotencyKey: IdempotencyKey? = nil
    ) {
        self.kind = kind
        self.scenario = scenario
        self.address = address
        self.attempt = attempt
        self.duration = duration
        self.value = value
        self.purity = purity
        self.idempotencyKey = idempotencyKey
    }

    /// The step's name; the scenario's for scenario events.
    public var step: String { address.path.isEmpty ? scenario : address.name }
}

extension ScenarioEvent {
    /// Whether the event concerns the scenario as a whole rather than one of its steps.
    public var isScenarioEvent: Bool {
        switch kind {
        case .scenarioStarted, .scenarioSucceeded, .scenarioFailed: true
        default: false
        }
    }
}

/// Receives the step events of every scenario launched with its environment, from any thread,
/// in the order they happen within one run.
public protocol ScenarioObserver: Sendable {
    /// Called for each event.
    ///
    /// - Parameter event: What happened.
    func scenario(_ event: ScenarioEvent)

    /// Why the run must launch nothing more, or `nil` while it may go on: a journal that could
    /// not write or sync a line (a step launched after it could act with a key not on disk).
    /// The scenario asks before every launch and ends the run failed with ``RunHalted``.
    var haltingError: (any Error)? { get }

    /// A part of the run now waits outside it — a person's answer to a ``ScreenPrompt``, a wait's
    /// or a poll's deadline — and launches nothing until the one matching ``runGoesOn()``; parts
    /// of a run in parallel may be parked at once. An app may be suspended meanwhile: a journal
    /// lets go of its file lock here (iOS kills an app suspended holding one).
    func runParked()

    /// The parked part of the run goes on (an answer came, the deadline, a cancellation). Called
    /// before the waiting operation hears of it, so an observer takes back what it let go of
    /// before the run writes or launches anything.
    func runGoesOn()
}

extension ScenarioObserver {
    /// An observer that records nothing the run depends on never stops it.
    public var haltingError: (any Error)? { nil }

    /// An observer that holds nothing across a wait ignores it.
    public func runParked() {}

    /// An observer that holds nothing across a wait ignores it.
    public func runGoesOn() {}
}

/// Supplies the outputs of steps that completed in an earlier run, so resuming a run does not
/// launch them again, and says how to launch the ones it must.
public protocol StepReplaying: Sendable {
    /// The recorded output of the step at `address`, or `nil` when it must run.
    ///
    /// - Throws: When a record exists but cannot be read as `type`.
    func recordedOutput<T: Sendable>(at address: StepAddress, as type: T.Type) throws -> T?

    /// How a resumed run goes on at the step at `address`, of `purity` in this build: replay
    /// its output, or launch it — with the idempotency key of an attempt left in doubt.
    ///
    /// - Throws: `ResumeError` when the step must not be launched again without the caller's
    ///   say-so; `JournalError/valueNotReadable(step:type:reason:)` when a record cannot be
    ///   read as `type`.
    func resumption<T: Sendable>(at address: StepAddress, as type: T.Type, purity: Purity) throws
        -> StepResumption<T>

    /// The input a step that ``resumption(at:as:purity:)`` launches again gets in place of
    /// `current`, the value its chain hands it now: the input of its latest attempt, when the
    /// run stood in a relaunch with a new input (the code asked again without another SMS) and
    /// the chain hands the step the same value as then. `nil` launches it with `current`.
    func resumedInput<T: Sendable>(at address: StepAddress, current: T) -> T?

    /// Whether launching the step at `address` with `input` repeats the request its latest
    /// recorded attempt sent, so the key ``resumption(at:as:purity:)`` gave applies: `false`
    /// only when the journal shows the recorded value was another one.
    func repeatsRecordedRequest<T: Sendable>(at address: StepAddress, input: T) -> Bool

    /// Where the polled step at `address` stood when the run stopped, as its last
    /// ``ScenarioEvent/Kind/polling(_:)`` event recorded it, with each poll that answered after
    /// it counted in; `nil` when nothing was recorded.
    ///
    /// A ``PollProgress/nextPoll`` is given only while the run was waiting for that poll: the
    /// resumed run waits what is left of it and launches the next poll, rather than replaying
    /// the last answer.
    func pollProgress(at address: StepAddress) -> PollProgress?
}

/// What a resumed run does at one step (see ``StepReplaying/resumption(at:as:purity:)``).
public enum StepResumption<Output: Sendable>: Sendable {
    /// The step completed before: finish it with this output, launching nothing.
    case replay(Output)
    /// Launch the step; with `idempotencyKey` when it repeats a recorded request, so the service
    /// recognises the repeat.
    case launch(idempotencyKey: IdempotencyKey?)
    /// The step failed for good with this error and the run was undoing its finished steps:
    /// fail it again, launching nothing, so that the undoing goes on.
    case failAgain(any Error)
}

// MARK: - Default implementations

extension StepReplaying {
    /// Replays what ``recordedOutput(at:as:)`` has and launches the rest with a new key: a
    /// replayer that knows nothing of attempts in doubt.
    public func resumption<T: Sendable>(at address: StepAddress, as type: T.Type, purity: Purity) throws
        -> StepResumption<T>
    {
        if let output = try recordedOutput(at: address, as: type) { return .replay(output) }
        return .launch(idempotencyKey: nil)
    }

    /// Launches every step with what its chain hands it: a replayer that keeps no inputs.
    public func resumedInput<T: Sendable>(at address: StepAddress, current: T) -> T? { nil }

    /// Trusts the key it gave: a replayer that keeps no inputs cannot tell two values apart.
    public func repeatsRecordedRequest<T: Sendable>(at address: StepAddress, input: T) -> Bool { true }

    /// Knows nothing of polls: a resumed polling starts counting and waiting afresh.
    public func pollProgress(at address: StepAddress) -> PollProgress? { nil }
}
