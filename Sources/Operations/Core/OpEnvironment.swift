/// Host-wide services that travel in every ``OpContext``: time, diagnostics, observation.
///
/// An environment is built once by the host (the app, the CLI, a test) and shared by reference.
/// Tests inject a `TestScheduler` and a `DiagnosticsRecorder` (both in the `OperationsTesting`
/// product) here instead of touching global state.
public final class OpEnvironment: Sendable {
    /// Schedules deadlines and retry backoff; tests use `OperationsTesting`'s `TestScheduler` to
    /// run them without sleeping.
    public let scheduler: any Scheduler
    /// Receives contract violations: a second finish, an abandoned launch.
    public let diagnostics: any OpDiagnostics
    /// When set, every launch registers here until it finishes.
    public let inFlight: InFlightRegistry?
    /// Receives scenario step events: progress lines, journals, test recorders.
    public let observer: (any ScenarioObserver)?
    /// Supplies outputs of steps that already completed in an earlier run (journal resume).
    public let replay: (any StepReplaying)?
    /// A uniform random number in `0..<1`, used for backoff jitter.
    public let random: @Sendable () -> Double
    /// Names each attempt of a step with side effects (see ``IdempotencyKey``); random by
    /// default. Diagrams and tests inject a sequence, so the keys they show are the same on
    /// every run.
    public let makeIdempotencyKey: @Sendable () -> IdempotencyKey

    /// Creates an environment; diagnostics go to ``defaultDiagnostics`` (the unified log on
    /// Apple platforms, standard error elsewhere) when omitted. Tests inject a constant
    /// `random` and ``IdempotencyKey/sequence(prefix:)`` for stable output.
    public init(
        scheduler: any Scheduler = DispatchScheduler.shared,
        diagnostics: any OpDiagnostics = OpEnvironment.defaultDiagnostics,
        inFlight: InFlightRegistry? = nil,
        observer: (any ScenarioObserver)? = nil,
        replay: (any StepReplaying)? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        makeIdempotencyKey: @escaping @Sendable () -> IdempotencyKey = IdempotencyKey.make
    ) {
        self.scheduler = scheduler
        self.diagnostics = diagnostics
        self.inFlight = inFlight
        self.observer = observer
        self.replay = replay
        self.random = random
        self.makeIdempotencyKey = makeIdempotencyKey
    }

    /// The same services with diagnostics going elsewhere — what a test harness uses to watch
    /// a launch's diagnostics without dropping any other service the caller set up.
    public func with(diagnostics: any OpDiagnostics) -> OpEnvironment {
        OpEnvironment(
            scheduler: scheduler, diagnostics: diagnostics, inFlight: inFlight, observer: observer, replay: replay,
            random: random, makeIdempotencyKey: makeIdempotencyKey)
    }

    /// The same services with another observer and replay: what a host adds to a run it
    /// watches (an observer of its own in front of the run's), and what an event handler's
    /// launch drops (neither, so it is not journaled or replayed as a step of the run).
    public func with(observer: (any ScenarioObserver)?, replay: (any StepReplaying)?) -> OpEnvironment {
        OpEnvironment(
            scheduler: scheduler, diagnostics: diagnostics, inFlight: inFlight, observer: observer, replay: replay,
            random: random, makeIdempotencyKey: makeIdempotencyKey)
    }

    /// The environment used when a context is made without one: dispatch timers, the
    /// platform's diagnostics (``defaultDiagnostics``), no registry, no observer.
    public static let `default` = OpEnvironment()

    /// The diagnostics an environment reports to when it is given none: where the platform's
    /// developers look.
    ///
    /// On Apple platforms, the unified log (`LoggerDiagnostics`, subsystem `Operations`): an app
    /// on a device has no standard error anyone reads. Elsewhere, one line on standard error
    /// (``StandardErrorDiagnostics``). Either way, a debug build stops at a second finish.
    public static var defaultDiagnostics: any OpDiagnostics {
        // `os.Logger` exists only on Apple platforms.
        #if canImport(os)
            LoggerDiagnostics()
        #else
            StandardErrorDiagnostics()
        #endif
    }
}
