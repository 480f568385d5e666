package import AuthFlow
package import AuthSimulator
import Dispatch
import Foundation
public import Operations
public import OperationsDiagrams

/// The message diagrams of the sign-in operations and scenarios, traced from real runs against
/// a deterministic simulator — the source of the committed `Diagrams/` and of `opctl diagram`.
///
/// Every run uses a fixed clock and simulator identity, so the same code draws the same bytes.
public enum AuthDiagrams {
    /// What can be drawn, in catalogue order.
    public static let names = [
        "PhoneOp", "PhoneOp.rejected", "TermsOfUseOp", "CodeOp", "AuthOp", "SaveTokenOp", "SignOutOp",
        "AuthScenario", "VerificationScenario",
        "AuthScenario.services", "AuthScenario.retry", "AuthScenario.termsAccepted", "AuthScenario.codeRejected",
        "AuthScenario.termsChanged", "AppScenario", "AppScenario.signIn", "AppScenario.termsChangedEvent",
    ]

    /// Why a diagram could not be drawn.
    public enum DiagramError: Error, CustomStringConvertible {
        /// No operation or scenario has that name.
        case unknown(String)
        /// The traced run did not finish as the diagram expects.
        case runFailed(String, any Error)
        /// The renderer refused the trace.
        case rendering(TraceError)

        /// A sentence for people: logs, CLI messages, test failures.
        public var description: String {
            switch self {
            case .unknown(let name):
                "no diagram named '\(name)' (one of: \(AuthDiagrams.names.joined(separator: ", ")))"
            case .runFailed(let name, let error): "the traced run of \(name) failed: \(error)"
            case .rendering(let error): "\(error)"
            }
        }
    }

    /// Draws one diagram.
    ///
    /// - Parameters:
    ///   - name: One of ``names``.
    ///   - format: The output format.
    ///   - width: The text width (text formats only).
    /// - Returns: The diagram, ending in one newline.
    /// - Throws: ``DiagramError``.
    public static func render(_ name: String, format: DiagramFormat, width: Int = 100) throws(DiagramError) -> String {
        try render(trace(of: name), format: format, width: width)
    }

    /// Draws a trace in a format.
    ///
    /// - Throws: ``DiagramError/rendering(_:)`` when the trace is invalid or too wide.
    public static func render(_ trace: Trace, format: DiagramFormat, width: Int = 100) throws(DiagramError) -> String {
        do {
            return try format.render(trace, width: width)
        } catch {
            throw .rendering(error)
        }
    }

    /// The trace of a real run of `name`; scenarios are limited to their own level (operations
    /// as black boxes).
    ///
    /// - Throws: ``DiagramError``.
    public static func trace(of name: String) throws(DiagramError) -> Trace {
        do {
            let bench = try DiagramBench()
            switch name {
            case "PhoneOp":
                return try bench.traced(bench.factory.makePhoneOp(), input: bench.phone)
            case "PhoneOp.rejected":
                // A number the backend does not serve, asked for again on the same screen.
                let bench = try DiagramBench(rejectsFirstPhone: true)
                return try bench.traced(bench.factory.makePhoneOp(), input: bench.rejectedPhone)
            case "TermsOfUseOp":
                let attempt = try bench.submitPhone()
                return try bench.traced(bench.factory.makeTermsOfUseOp(), input: attempt.phoneToken)
            case "AuthOp":
                // Before the split: both screens in one operation, which works only while no
                // terms are required between them.
                let bench = try DiagramBench(termsRequired: false)
                return try bench.traced(bench.factory.makeAuthOp(), input: bench.phone)
            case "CodeOp":
                let attempt = try bench.acceptedAttempt()
                return try bench.traced(bench.factory.makeCodeOp(), input: CodeRequest(attempt: attempt))
            case "SaveTokenOp":
                let token = try bench.authToken()
                return try bench.traced(bench.factory.makeSaveTokenOp(), input: token)
            case "SignOutOp":
                // A saved sign-in: revoked on the backend first, deleted only after it confirmed.
                try bench.factory.storage.saveAuthToken(try bench.authToken())
                return try bench.traced(bench.factory.makeSignOutOp(), input: ())
            case "AuthScenario":
                return try bench.authScenario(depth: 2)
            case "VerificationScenario":
                // The part AuthScenario launches again as a whole: its own operations.
                let attempt = try bench.submitPhone()
                return try bench.traced(
                    bench.factory.makeVerificationScenario(), input: VerificationRequest(attempt: attempt)
                ).limited(toDepth: 2)
            case "AuthScenario.services":
                // The whole flow with the services each operation talks to: too wide for one
                // page, so the text is drawn step by step.
                return try bench.authScenario(depth: 4)
            case "AuthScenario.retry":
                // A transient failure retried by the policy (the terms step: PhoneOp retries its
                // request inside), then a wrong code asked again.
                let bench = try DiagramBench(
                    faults: [.terms: [.unavailable(times: 1)]], wrongCodeFirst: true,
                    // Drawn at once: neither a backoff nor the 503's Retry-After is waited for.
                    retry: .transient(maxAttempts: 3, backoff: .immediate, maxRequestedDelay: .zero))
                return try bench.authScenario(depth: 3)
            case "AuthScenario.termsAccepted":
                // Terms already accepted: the conditional step is skipped, and the note says so.
                let bench = try DiagramBench(termsRequired: false)
                return try bench.authScenario(depth: 3)
            case "AuthScenario.codeRejected":
                // Every code wrong: the person is asked until the backend allows no more, and the
                // note at the end says why the run stopped.
                let bench = try DiagramBench(wrongCodes: 3)
                return try bench.authScenario(depth: 3, expectingFailure: true)
            case "AuthScenario.termsChanged":
                // The terms change after the terms screen: code/send refuses, and the whole
                // verification is launched again, showing the new terms (a `loop` frame).
                let bench = try DiagramBench(faults: [.codeSend: [.termsChanged(times: 1)]])
                return try bench.authScenario(depth: 2)
            case "AppScenario.signIn":
                // Nobody signed in: the main scenario runs AuthScenario as a step, drawn as a group.
                return try bench.appScenario()
            case "AppScenario":
                // The reuse the article asks for: a saved sign-in meets changed terms, and the
                // main scenario runs TermsOfUseOp alone.
                try bench.factory.storage.saveAuthToken(try bench.authToken())
                bench.simulator.publishTerms(version: "2", text: "Updated demonstration terms of use.")
                return try bench.appScenario()
            case "AppScenario.termsChangedEvent":
                // The article's key service launching a lone operation: signed in, the terms
                // unchanged at the app's own check, then new terms and the push saying so; at
                // the end the SessionKeeper launches the saved-session terms flow by itself.
                try bench.factory.storage.saveAuthToken(try bench.authToken())
                let simulator = bench.simulator
                let events = bench.factory.events
                let push = AfterStep(step: "CheckSessionOp") {
                    simulator.publishTerms(version: "2", text: "Updated demonstration terms of use.")
                    events.post(.termsChanged)
                }
                return try bench.appScenario(observer: push)
            default:
                throw DiagramError.unknown(name)
            }
        } catch let error as DiagramError {
            throw error
        } catch {
            throw .runFailed(name, error)
        }
    }
}

/// Why a traced run gave no diagram.
private enum DiagramBenchError: Error, CustomStringConvertible {
    /// A run drawn for how it fails finished successfully: the diagram would not show what its
    /// name promises.
    case succeededUnexpectedly
    /// The operation did not finish before the timeout: the simulator answers at once, so such
    /// a run is stuck, and `opctl diagram` says so instead of hanging.
    case didNotFinish(operation: String, timeout: Duration)

    var description: String {
        switch self {
        case .succeededUnexpectedly: "the run was expected to fail and succeeded"
        case .didNotFinish(let operation, let timeout): "\(operation) did not finish within \(timeout)"
        }
    }
}

extension Op {
    /// Launches the operation and blocks the calling thread until it finishes. Diagrams are drawn
    /// synchronously (`opctl diagram`, the drift tests) from the in-process simulator, which
    /// answers on a Dispatch queue, never on this thread; the timeout turns a stuck run into an
    /// error. The wait itself is the engine's package-wide one, shared with `OperationsTesting`'s
    /// `launchAndWait`.
    package func runToFinish(_ context: OpContext<Input>, timeout: Duration = .seconds(30)) throws -> Output {
        guard let result = blockingResult(context, timeout: timeout) else {
            throw DiagramBenchError.didNotFinish(operation: String(describing: Self.self), timeout: timeout)
        }
        return try result.get()
    }
}

/// One deterministic simulator, storage and script per diagram; `package` for the stateful
/// variants' diagrams, drawn beside them in Examples/StatefulAuthFlow.
package struct DiagramBench {
    let simulator: SimulatedBackend
    package let factory: AuthFlowFactory
    package let phone: PhoneNumber?
    /// A number the simulator refuses when the bench is made with `rejectsFirstPhone`.
    let rejectedPhone: PhoneNumber?

    package init(
        faults: [SimulatedBackend.Endpoint: [SimulatedBackend.Fault]] = [:], termsRequired: Bool = true,
        wrongCodeFirst: Bool = false, wrongCodes: Int = 0, rejectsFirstPhone: Bool = false,
        retry: RetryPolicy = .never
    ) throws {
        let phone = try PhoneNumber(parsing: "+7 999 123-45-67")
        self.phone = phone
        let rejected = try PhoneNumber(parsing: "+7 999 000-00-00")
        rejectedPhone = rejected
        var configuration = SimulatedBackend.Configuration()
        if rejectsFirstPhone { configuration.rejectedNumbers = [rejected.e164] }
        let fixed = Date(timeIntervalSince1970: 1_800_000_000)
        configuration.clock = { fixed }
        configuration.instanceID = 0x5EED
        configuration.termsRequired = termsRequired
        configuration.faults = faults
        simulator = SimulatedBackend(configuration: configuration)
        let code = try SMSCode(configuration.smsCode, length: configuration.smsCode.count)
        let wrong = try SMSCode(
            String(repeating: "0", count: configuration.smsCode.count), length: configuration.smsCode.count)
        let screens = ScriptedScreens(
            // Enough answers for the untraced set-up runs and the traced one.
            phone: (rejectsFirstPhone ? [.submitted(rejected)] : []) + Array(repeating: .submitted(phone), count: 3),
            terms: Array(repeating: .accepted, count: 3),
            code: Array(repeating: .submitted(wrong), count: wrongCodeFirst ? 1 : wrongCodes)
                + Array(repeating: .submitted(code), count: 3))
        factory = AuthFlowFactory(
            api: HTTPAuthAPI(transport: simulator, timeout: .seconds(5)), storage: InMemoryLocalStorage(),
            screens: screens, retry: retry)
    }

    /// Runs `body` with a traced context and returns what it recorded; a run drawn for how it
    /// fails (`expectingFailure`) must fail, and one drawn for how it succeeds must succeed.
    package func traced(
        expectingFailure: Bool = false, observer: (any ScenarioObserver)? = nil,
        _ body: (OpContext<Void>) throws -> some Any
    ) throws -> Trace {
        let tracer = InMemoryTracer()
        // Counted idempotency keys: the notes show them, and the bytes must not change.
        var context = OpContext<Void>(
            environment: OpEnvironment(makeIdempotencyKey: IdempotencyKey.sequence()).with(
                observer: observer, replay: nil))
        context.trace = .root(tracer, caller: .caller("Caller"))
        do {
            _ = try body(context)
            if expectingFailure { throw DiagramBenchError.succeededUnexpectedly }
        } catch  where expectingFailure && !(error is DiagramBenchError) {
            // The failure is what the diagram shows.
        }
        return tracer.trace
    }

    /// A traced run of `operation` with `input`.
    func traced<Operation: Op>(_ operation: Operation, input: Operation.Input) throws -> Trace {
        try traced { try operation.runToFinish($0.with(input: input)) }
    }

    /// A traced run of the sign-in scenario, drawn `depth` levels deep.
    func authScenario(depth: Int, expectingFailure: Bool = false) throws -> Trace {
        try traced(expectingFailure: expectingFailure) {
            try factory.makeAuthScenario().runToFinish($0.with(input: phone))
        }.limited(toDepth: depth)
    }

    /// A traced run of the app's main scenario, drawn to its steps' level.
    func appScenario(observer: (any ScenarioObserver)? = nil) throws -> Trace {
        try traced(observer: observer) { try factory.makeAppScenario().runToFinish($0.with(input: phone)) }
            .limited(toDepth: 2)
    }

    func submitPhone() throws -> SignInAttempt {
        try factory.makePhoneOp().runToFinish(OpContext(phone))
    }

    func acceptedAttempt() throws -> SignInAttempt {
        let attempt = try submitPhone()
        let acceptance = try factory.makeTermsOfUseOp().runToFinish(OpContext(attempt.phoneToken))
        return attempt.accepting(acceptance)
    }

    func authToken() throws -> AuthToken {
        try factory.makeCodeOp().runToFinish(OpContext(CodeRequest(attempt: try acceptedAttempt())))
    }
}

/// Does something from outside the run (publish new terms, post the push) once, when a step
/// succeeded: what happens to an app while its main scenario runs.
private struct AfterStep: ScenarioObserver {
    let step: String
    let action: @Sendable () -> Void
    let done = OnceFlag()

    func scenario(_ event: ScenarioEvent) {
        if case .stepSucceeded = event.kind, event.address.path.last?.name == step, done.claim() { action() }
    }
}
