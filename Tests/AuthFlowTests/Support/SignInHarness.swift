import AuthFlow
import AuthSimulator
import Dispatch
import Foundation
import Operations
import OperationsTesting

/// The whole sign-in stack of a scenario test: the real ``HTTPAuthAPI`` over a
/// ``SimulatedBackend``, in-memory storage, scripted screens, and an environment whose retry
/// backoff is immediate and whose observer records the steps. Nothing sleeps: the simulator
/// answers on a Dispatch queue at once and ``LaunchProbe`` waits on the completion.
struct SignInHarness {
    let clock: TestClock
    let backend: SimulatedBackend
    let api: HTTPAuthAPI
    let storage: InMemoryLocalStorage
    let screens: ScriptedScreens
    let recorder = ScenarioRecorder()
    let diagnostics = DiagnosticsRecorder()
    let scheduler = TestScheduler()
    private let scheduled = DispatchSemaphore(value: 0)
    /// The client's request timeout, which runs on the test scheduler like any other delay.
    static let requestTimeout: Duration = .seconds(5)

    /// - Parameters:
    ///   - backend: The simulator; its clock should be `clock`.
    ///   - clock: The client's clock; starts at the real now, because ``AppScenario`` checks a
    ///     saved token's expiry against the real clock.
    ///   - storage: The storage, e.g. one holding a token saved by an earlier run.
    ///   - screens: The scripted answers.
    ///   - transport: Where the client's requests go instead of straight to `backend`: a real
    ///     socket to a server serving it.
    init(
        backend: SimulatedBackend, clock: TestClock, storage: InMemoryLocalStorage = InMemoryLocalStorage(),
        screens: ScriptedScreens, transport: (any HTTPTransport)? = nil
    ) {
        self.clock = clock
        self.backend = backend
        self.api = HTTPAuthAPI(transport: transport ?? backend, timeout: Self.requestTimeout, now: clock.function)
        self.storage = storage
        self.screens = screens
    }

    /// A harness over a fresh simulator with the fixture SMS code `123456`.
    init(
        termsRequired: Bool = true, attemptsBeforeLock: Int = 3,
        faults: [SimulatedBackend.Endpoint: [SimulatedBackend.Fault]] = [:],
        storage: InMemoryLocalStorage = InMemoryLocalStorage(), screens: ScriptedScreens
    ) {
        let clock = TestClock(Date())
        var configuration = SimulatedBackend.Configuration(
            smsCode: "123456", termsRequired: termsRequired, attemptsBeforeLock: attemptsBeforeLock, faults: faults)
        configuration.clock = clock.function
        configuration.instanceID = 1
        self.init(
            backend: SimulatedBackend(configuration: configuration), clock: clock, storage: storage, screens: screens)
    }

    /// The factory, retrying transient failures three times in all without waiting, not even for
    /// the simulator's `Retry-After: 1` on a 503.
    var factory: AuthFlowFactory {
        AuthFlowFactory(
            api: api, storage: storage, screens: screens,
            retry: .transient(maxAttempts: 3, backoff: .immediate, maxRequestedDelay: .zero))
    }

    /// A context carrying the recorder, the diagnostics and the test scheduler.
    func context<Input: Sendable>(_ input: Input) -> OpContext<Input> {
        OpContext(
            input,
            environment: OpEnvironment(
                scheduler: SignalingScheduler(scheduler, signal: scheduled), diagnostics: diagnostics,
                observer: recorder, random: { 0 }))
    }

    /// Waits until the scenario hands work to the scheduler (a retry waiting for its backoff).
    ///
    /// - Throws: ``CompletionTimedOut`` when nothing is scheduled within `timeout`.
    func waitForScheduledWork(timeout: Duration = TestTimeout.standard) throws {
        guard scheduled.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds) * 1000)) == .success
        else { throw CompletionTimedOut(timeout: timeout) }
    }

    /// Launches the sign-in scenario and waits for it to finish and be released.
    func signIn(_ phone: PhoneNumber? = nil) async -> LaunchReport<AuthToken> {
        let (factory, context) = (factory, context(phone))
        // A hang guard, generous so a loaded machine under Thread Sanitizer never trips it.
        return await LaunchProbe.awaitLaunch(factory.makeAuthScenario, context: context)
    }

    /// Launches the app's main scenario and waits for it to finish and be released.
    func startApp(_ phone: PhoneNumber? = nil) async -> LaunchReport<AppOutcome> {
        let (factory, context) = (factory, context(phone))
        return await LaunchProbe.awaitLaunch(factory.makeAppScenario, context: context)
    }

    /// The simulator's default terms, as the terms screen shows them.
    var termsModel: TermsViewModel {
        TermsViewModel(api: modelAPI, terms: TermsOfUse(version: "1", text: backend.configuration.termsText))
    }

    /// The code screen's model after the SMS was sent.
    static let codeModel = CodeViewModel(api: modelAPI, phone: Fixtures.phone, codeLength: 6, resendAfter: 30)
}

/// Forwards to a ``TestScheduler`` and signals every time work is scheduled, so a test can wait
/// for a retry to start waiting instead of polling.
private struct SignalingScheduler: Scheduler {
    let base: TestScheduler
    let signal: DispatchSemaphore

    init(_ base: TestScheduler, signal: DispatchSemaphore) {
        self.base = base
        self.signal = signal
    }

    var now: ContinuousClock.Instant { base.now }

    var wallClock: Date { base.wallClock }

    /// Schedules on the test scheduler; signals for anything but a request's timeout, which
    /// every HTTP call schedules (and cancels when the answer comes).
    func schedule(at instant: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork {
        let isRequestTimeout = base.now.duration(to: instant) == SignInHarness.requestTimeout
        defer { if !isRequestTimeout { signal.signal() } }
        return base.schedule(at: instant, work)
    }
}

/// Receives one value from another thread; the test takes it with a timeout.
final class Mailbox<Value: Sendable>: Sendable {
    private let values = LockedState<[Value]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func put(_ value: Value) {
        values.withLock { $0.append(value) }
        arrived.signal()
    }

    var isEmpty: Bool { values.withLock { $0.isEmpty } }

    /// - Throws: ``CompletionTimedOut`` when nothing arrives within `timeout`.
    func take(timeout: Duration = TestTimeout.standard) throws -> Value {
        guard arrived.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds) * 1000)) == .success
        else { throw CompletionTimedOut(timeout: timeout) }
        return values.withLock { $0.removeFirst() }
    }
}
